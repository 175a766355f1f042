// The root is asked at once: its first request needs only the question and what is known of `context`
// before binding (sizes, file list, prefix), so it goes out while the REPL is taken and the input is read
// and bound. The record stays in order, says what the root was shown, and the first observation tells
// the root what binding changed. A read that fails after the request went out ends the run with that error.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planPaths } from '../../../../src/core/context/contextPlan';
import type { ReplFactory } from '../../../../src/core/repl/replFactory';
import { fence, isRootRequest, lastUser, makeRepl, ofType, runCollect, startModel, turnOf } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';
import { until } from '../../../support/until';

/** A pool whose acquire() waits for `open()`: the REPL is "still starting" until the test says so. */
function gatedRepl(inner: TestRepl): { factory: ReplFactory; open(): void; acquires: () => number } {
  let release!: () => void;
  const gate = new Promise<void>((go) => (release = go));
  let acquires = 0;
  return {
    factory: {
      acquire: async (options) => {
        acquires++;
        await gate;
        return inner.acquire(options);
      },
      release: (session) => inner.release(session),
    },
    open: () => release(),
    acquires: () => acquires,
  };
}

describe('the root is asked at once', () => {
  let repl: TestRepl;
  let dir: string;
  const models: Harness[] = [];
  before(() => {
    repl = makeRepl();
    dir = mkdtempSync(join(tmpdir(), 'rlm-at-once-'));
    mkdirSync(join(dir, 'proj'));
    writeFileSync(join(dir, 'proj', 'a.txt'), 'alpha\n');
    writeFileSync(join(dir, 'proj', 'blob.txt'), Buffer.from([0x62, 0, 0x62]));
    writeFileSync(join(dir, 'proj', 'c.txt'), 'gamma é\n');
  });
  after(async () => {
    await Promise.all(models.map((m) => m.close()));
    await repl.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the first request before the REPL is ready, and records the run in order', async () => {
    const model = await startModel('openai', (req) => (turnOf(req) === 0 ? fence('print(len(context))') : fence('FINAL("done")')));
    models.push(model);
    const gated = gatedRepl(repl);
    const running = runCollect({ question: 'How long?', context: { kind: 'text', text: 'x'.repeat(1000) }, root: model.client, repl: gated.factory });
    await until(() => model.server.requests.length === 1);
    assert.equal(gated.acquires(), 1, 'the REPL was asked for at the same time');
    gated.open();
    const { result, events } = await running;
    assert.equal(result.answer, 'done');
    assert.equal(events[0]!.type, 'run.started');
    const started = ofType(events, 'run.started')[0]!;
    assert.equal(started.contextShown, undefined, 'a string preview is exact, so the root was shown `context` itself');
    const order = events.map((e) => e.type).filter((t) => t !== 'model.delta');
    assert.deepEqual(order.slice(0, 3), ['run.started', 'turn.started', 'model.output']);
  });

  it('a folder is previewed from the walk; the first observation says what binding left out', async () => {
    const model = await startModel('anthropic', (req) => (isRootRequest(req) && turnOf(req) === 0 ? fence('print(sorted(context))') : fence('FINAL("ok")')));
    models.push(model);
    const plan = await planPaths(['proj'], { cwd: dir });
    const { result, events } = await runCollect({ question: 'Which files?', context: { kind: 'plan', plan }, target: plan.target, root: model.client, repl });
    assert.equal(result.answer, 'ok');
    const first = model.server.requests[0]!.parsed!;
    assert.match(first.messages[0]!.content, /dict of path -> text with about 18 characters \(18 bytes\) in 3 files/);
    assert.match(first.messages[0]!.content, /proj\/blob\.txt/, 'the walk cannot know blob.txt is binary');
    const second = model.server.requests[1]!.parsed!;
    assert.match(lastUser(second), /Now bound: 1 file was left out when read: proj\/blob\.txt \(binary\)\. `context` holds 14 characters in 2 files\./);
    assert.match(lastUser(second), /\['proj\/a\.txt', 'proj\/c\.txt'\]/);
    const started = ofType(events, 'run.started')[0]!;
    assert.equal(started.contextShown?.approximate, true);
    assert.equal(started.context.fileCount, 2);
    assert.deepEqual(started.context.leftOut, [{ path: 'proj/blob.txt', reason: 'binary', bytes: 3 }]);
    assert.ok(started.target?.skipped.some((s) => s.path === 'proj/blob.txt' && s.reason === 'binary'), 'the target lists it with the other skips');
  });

  it('a read that fails after the first request went out ends the run with the read error, recorded', async () => {
    const model = await startModel('openai', () => fence('print(1)'), {}, 200);
    models.push(model);
    const path = join(dir, 'shrinking.log');
    writeFileSync(path, 'z'.repeat(3 * 1024 * 1024));
    const plan = await planPaths([path], { cwd: dir });
    truncateSync(path, 10);
    const { result, events } = await runCollect({ question: 'What is in it?', context: { kind: 'plan', plan }, target: plan.target, root: model.client, repl });
    assert.equal(result.status, 'error');
    assert.equal(result.error?.kind, 'invalid_context');
    assert.match(result.error?.message ?? '', /changed while it was read/);
    assert.ok(model.server.requests.length >= 1, 'the first request had gone out');
    assert.deepEqual(
      events.map((e) => e.type).filter((t) => t === 'run.started' || t === 'run.finished'),
      ['run.started', 'run.finished'],
    );
    assert.equal(ofType(events, 'run.started')[0]!.context.approximate, true, 'the record holds what the root was shown');
  });
});
