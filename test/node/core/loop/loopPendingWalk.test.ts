// A folder still being walked when the run starts (PendingContext): the root's first request goes out
// with what the walk found so far, marked partial, and `context` is bound once the walk ends; the first
// observation then gives the full figures and the mode. A walk that ends before the preview is due is
// described whole. A walk that fails after the request left ends the run, recorded. A folder bound
// lazily is not scanned for coverage after the answer (that would read all of it).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planPaths } from '../../../../src/core/context/contextPlan';
import { ContextTooLargeError } from '../../../../src/core/context/contextErrors';
import type { ContextPlan, PendingContext, PlanProgress } from '../../../../src/core/context/contextTypes';
import { partialPreview } from '../../../../src/core/repl/contextEncoding';
import { fence, lastUser, makeRepl, ofType, runCollect, startModel, turnOf } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';
import { until } from '../../../support/until';

function gate<T>(): { promise: Promise<T>; resolve(value: T): void; reject(error: unknown): void } {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((ok, fail) => ((resolve = ok), (reject = fail)));
  return { promise, resolve, reject };
}

describe('a folder still being walked', () => {
  let repl: TestRepl;
  let dir: string;
  const models: Harness[] = [];
  before(() => {
    repl = makeRepl();
    dir = mkdtempSync(join(tmpdir(), 'rlm-pending-'));
    mkdirSync(join(dir, 'proj', 'src'), { recursive: true });
    for (let i = 0; i < 6; i++) writeFileSync(join(dir, 'proj', 'src', `m${i}.ts`), `export const v${i} = ${i};\n`.repeat(40));
  });
  after(async () => {
    await Promise.all(models.map((m) => m.close()));
    await repl.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A pending context over `plan` whose walk has found `found` files when the preview is due. */
  function pendingOf(plan: ContextPlan, found: number, eagerLimit: number): { context: PendingContext; ready: ReturnType<typeof gate<ContextPlan>> } {
    const ready = gate<ContextPlan>();
    const progress: PlanProgress = { fileCount: found, totalBytes: plan.files.slice(0, found).reduce((n, f) => n + f.bytes, 0), firstFiles: plan.files.slice(0, found) };
    return {
      ready,
      context: {
        kind: 'pending',
        ready: ready.promise.then((p) => ({ context: { kind: 'plan', plan: p }, target: p.target })),
        previewDue: Promise.resolve(),
        soFar: () => partialPreview(progress, eagerLimit),
      },
    };
  }

  it('sends the first request with the files found so far, then binds the whole folder and says so', async () => {
    const model = await startModel('openai', (req) => (turnOf(req) === 0 ? fence('print(len(context), context_meta().get("mode"))') : fence('FINAL("done")')));
    models.push(model);
    const plan = await planPaths(['proj'], { cwd: dir, maxTotalBytes: 2000 });
    assert.ok(plan.lazy, 'over the lowered eager limit');
    const { context, ready } = pendingOf(plan, 2, 2000);
    const running = runCollect({ question: 'How many files?', context, root: model.client, repl });
    await until(() => model.server.requests.length === 1);
    const first = model.server.requests[0]!.parsed!.messages[0]!.content;
    assert.match(first, /still being listed when this was sent: so far 2 files, [\d,]+ bytes, and more may come/);
    assert.match(first, /Files found so far \(path: size\):\n- proj\/src\/m0\.ts/);
    assert.match(first, /Mode: decided when the listing ends/, 'under the eager limit so far: the mode is left open');
    assert.doesNotMatch(first, /It begins with/, 'the first file in path order is not known yet');
    ready.resolve(plan);
    const { result, events } = await running;
    assert.equal(result.answer, 'done');
    const second = lastUser(model.server.requests[1]!.parsed!);
    assert.match(second, /Now bound: `context` holds [\d,]+ characters in 6 files\. Mode: lazy\./);
    assert.match(second, /6 lazy/);
    const started = ofType(events, 'run.started')[0]!;
    assert.equal(started.contextShown?.listing, 'partial');
    assert.equal(started.context.fileCount, 6);
    assert.equal(started.target?.fileCount, 6, 'the target is the walk’s, once it ended');
    // Lazily bound: the answer is not followed by a scan of the whole folder.
    assert.equal(ofType(events, 'coverage').length, 0);
    assert.match(ofType(events, 'fallback').find((f) => f.kind === 'coverage-unavailable')?.detail ?? '', /bound lazily \(6 files/);
  });

  it('a preview already over the eager limit says lazy at once', () => {
    const progress: PlanProgress = { fileCount: 3, totalBytes: 5000, firstFiles: [{ path: 'a', abs: '/a', bytes: 5000 }] };
    const meta = partialPreview(progress, 1000)!;
    assert.equal(meta.mode, 'lazy');
    assert.equal(meta.filesOmitted, 2);
    assert.equal(partialPreview({ fileCount: 0, totalBytes: 0, firstFiles: [] }, 1000), undefined, 'nothing found yet: nothing to show');
  });

  it('a walk that ends before the preview is due is described whole', async () => {
    const model = await startModel('openai', () => fence('FINAL("ok")'));
    models.push(model);
    const plan = await planPaths(['proj'], { cwd: dir });
    const context: PendingContext = {
      kind: 'pending',
      ready: Promise.resolve({ context: { kind: 'plan', plan }, target: plan.target }),
      previewDue: new Promise(() => undefined),
      soFar: () => assert.fail('not asked: the walk ended first'),
    };
    const { result } = await runCollect({ question: 'Which?', context, root: model.client, repl });
    assert.equal(result.answer, 'ok');
    const first = model.server.requests[0]!.parsed!.messages[0]!.content;
    assert.match(first, /with about [\d,]+ characters \([\d,]+ bytes\) in 6 files/);
    assert.match(first, /It begins with: "export const v0/);
  });

  it('a walk that has found nothing when the preview is due is not waited for whole: its first files go out', async () => {
    const model = await startModel('openai', (req) => (turnOf(req) === 0 ? fence('print(len(context))') : fence('FINAL("done")')));
    models.push(model);
    const plan = await planPaths(['proj'], { cwd: dir });
    const ready = gate<ContextPlan>();
    const progress: PlanProgress = { fileCount: 0, totalBytes: 0, firstFiles: [] };
    const context: PendingContext = {
      kind: 'pending',
      ready: ready.promise.then((p) => ({ context: { kind: 'plan', plan: p }, target: p.target })),
      previewDue: Promise.resolve(),
      soFar: () => partialPreview(progress, 256 * 1024 * 1024),
    };
    const running = runCollect({ question: 'How many files?', context, root: model.client, repl });
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(model.server.requests.length, 0, 'nothing found yet: nothing to describe');
    // The walk finds its first two files; it has not ended.
    progress.fileCount = 2;
    progress.totalBytes = plan.files[0]!.bytes + plan.files[1]!.bytes;
    progress.firstFiles = plan.files.slice(0, 2);
    await until(() => model.server.requests.length === 1);
    assert.match(model.server.requests[0]!.parsed!.messages[0]!.content, /still being listed when this was sent: so far 2 files/);
    ready.resolve(plan);
    const { result } = await running;
    assert.equal(result.answer, 'done');
    assert.match(lastUser(model.server.requests[1]!.parsed!), /in 6 files/, 'the full figures with the first observation');
  });

  it('a walk that fails after the first request left ends the run with its error, recorded', async () => {
    const model = await startModel('openai', () => fence('print(1)'), {}, 200);
    models.push(model);
    const plan = await planPaths(['proj'], { cwd: dir });
    const { context, ready } = pendingOf(plan, 3, 256 * 1024 * 1024);
    const running = runCollect({ question: 'Which?', context, root: model.client, repl });
    await until(() => model.server.requests.length === 1);
    ready.reject(new ContextTooLargeError(20e9, 16e9, [], true));
    const { result, events } = await running;
    assert.equal(result.status, 'error');
    assert.match(result.error?.message ?? '', /more than .* over the .* limit/);
    assert.deepEqual(
      events.map((e) => e.type).filter((t) => t === 'run.started' || t === 'run.finished'),
      ['run.started', 'run.finished'],
    );
    assert.equal(ofType(events, 'run.started')[0]!.context.listing, 'partial', 'the record holds what the root was shown');
  });
});
