// Issue 38: the helper API of the RLM system our product is built from works as written. A cell that
// uses context_meta(), peek, search(..., max_hits=100), sub_query(prompt, ctx[0:200]) and
// `ctx is context` answers through the real loop, REPL and SDK; the sub model receives the question and
// the slice; the record keeps them apart; and `ctx` is `context` in every binding mode.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planPaths } from '../../../../src/core/context/contextPlan';
import { TreeBuilder } from '../../../../src/core/trajectory/treeBuilder';
import { replayPlanOf } from '../../../../src/core/continuation/replayPlan';
import { toMarkdown } from '../../../../src/core/trajectory/exportMarkdown';
import type { EventRecord } from '../../../../src/core/trajectory/events';
import { checkEventFields } from '../../../../src/core/trajectory/recordSchema';
import { fence, isRootRequest, lastUser, makeRepl, ofType, runCollect, startModel, turnOf } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';

const TEXT = `${'alpha '.repeat(40)}\nThe vault code is 4417.\n${'omega line\n'.repeat(50)}`;

const SEED_CELL = [
  'meta = context_meta()',
  'head = peek(0, 40)',
  'hits = search(r"vault code is (\\d+)", max_hits=100)',
  'verdict = sub_query("Does this slice mention a vault code? Answer yes or no.", ctx[0:200])',
  'about_hit = sub_query("What is the code?", hits)',
  'print(meta["total_chars"], len(hits), hits[0]["line"], ctx is context, verdict, about_hit)',
].join('\n');

describe('sub_query and ctx (issue 38)', () => {
  let repl: TestRepl;
  let root: Harness;
  let sub: Harness;
  const subSeen: FakeModelRequest[] = [];
  const rootSeen: FakeModelRequest[] = [];
  let dir: string;
  let recorded: EventRecord[] = [];

  before(async () => {
    repl = makeRepl();
    dir = mkdtempSync(join(tmpdir(), 'rlm-subquery-'));
    root = await startModel('openai', () => 'unused');
    sub = await startModel('anthropic', (r) => {
      subSeen.push(r);
      const text = lastUser(r);
      return /4417/.test(text) ? 'the code is 4417' : 'no';
    });
  });
  after(async () => {
    await repl.dispose();
    await root.close();
    await sub.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a seed-style cell answers, the sub model gets the question and the slice, and the record shows them apart', async () => {
    subSeen.length = 0;
    rootSeen.length = 0;
    root.server.setRespond((r) => {
      if (isRootRequest(r)) rootSeen.push(r);
      return turnOf(r) === 0 ? fence(SEED_CELL) : fence('FINAL(f"{verdict} / {about_hit}")');
    });
    const { result, events } = await runCollect({ question: 'What is the vault code?', context: { kind: 'text', text: TEXT }, root: root.client, sub: sub.client, repl });
    recorded = events;
    assert.equal(result.answer, 'no / the code is 4417');
    // The first slice (200 characters of alphas) holds no code; the hit does.
    assert.match(lastUser(rootSeen[1]!), new RegExp(`${TEXT.length} 1 2 True no the code is 4417`));
    assert.equal(subSeen.length, 2);
    const first = lastUser(subSeen[0]!);
    assert.ok(first.startsWith('Does this slice mention a vault code? Answer yes or no.'), first);
    assert.ok(first.endsWith(TEXT.slice(0, 200)), 'the sub model received the slice itself');
    assert.match(lastUser(subSeen[1]!), /^What is the code\?[^]*line 2: The vault code is 4417\.$/);
    const calls = ofType(events, 'subcall.started');
    assert.equal(calls.length, 2);
    for (const call of calls) {
      assert.equal(call.kind, 'llm_query', 'billed, cached and limited as llm_query');
      assert.ok(call.slice, 'the record says where the slice is');
      assert.equal(checkEventFields(call as unknown as Record<string, unknown>, 'subcall.started'), undefined);
    }
    const [a] = calls;
    assert.equal(a!.prompt.slice(a!.slice!.start, a!.slice!.end), TEXT.slice(0, 200));
    assert.ok(a!.prompt.slice(0, a!.slice!.start).startsWith('Does this slice mention a vault code?'));
    // The run tree (what the views and exports read) carries the split too.
    const builder = new TreeBuilder();
    for (const e of events) builder.apply(e);
    const node = builder.tree!.turns[0]!.cells[0]!.subCalls[0]!;
    assert.deepEqual(node.slice, a!.slice);
    // And the Markdown export shows them apart.
    const md = toMarkdown(builder.tree!);
    assert.match(md, /- question: ` Does this slice mention a vault code\? Answer yes or no\. `\n/);
    assert.match(md, /- slice \(200 chars\): ` alpha alpha/);
  });

  it('the recorded run replays: its sub_query calls are answered from the record, nothing is sent, nothing diverges', async () => {
    assert.ok(recorded.length > 0, 'the first test recorded a run');
    const builder = new TreeBuilder();
    for (const e of recorded) builder.apply(e);
    const runId = builder.tree!.runId;
    const plan = replayPlanOf(builder.tree!);
    subSeen.length = 0;
    const rootBefore = root.server.requests.length;
    const replayed = await runCollect({
      question: 'replay only',
      context: { kind: 'text', text: TEXT },
      root: root.client,
      sub: sub.client,
      repl,
      replay: { plan, from: { mode: 'session', runId, question: 'What is the vault code?', allowDivergence: false } },
    });
    assert.equal(replayed.result.status, 'completed');
    assert.equal(ofType(replayed.events, 'replay.diverged').length, 0);
    assert.equal(subSeen.length, 0, 'the sub model was not asked again');
    assert.equal(root.server.requests.length, rootBefore, 'nor the root');
    const finished = ofType(replayed.events, 'subcall.finished');
    assert.deepEqual(finished.map((f) => [f.response, f.replayed]), [['no', true], ['the code is 4417', true]]);
    assert.match(ofType(replayed.events, 'cell.finished')[0]!.stdout, /True no the code is 4417/);
  });

  it('sub_query refuses an empty question and a slice it cannot read, before anything is sent', async () => {
    subSeen.length = 0;
    root.server.setRespond((r) =>
      turnOf(r) === 0
        ? fence('errs = []\nfor args in [("", "x"), ("q", 42)]:\n    try:\n        sub_query(*args)\n    except (ValueError, TypeError) as e:\n        errs.append(type(e).__name__)\nprint(errs)')
        : fence('FINAL("ok")'),
    );
    const { result } = await runCollect({ question: 'q', context: { kind: 'text', text: TEXT }, root: root.client, sub: sub.client, repl });
    assert.equal(result.answer, 'ok');
    assert.equal(subSeen.length, 0);
  });

  it('ctx is context, read-only and restored like it, over a folder bound eagerly and lazily', async () => {
    mkdirSync(join(dir, 'proj'), { recursive: true });
    for (let i = 0; i < 4; i++) writeFileSync(join(dir, 'proj', `f${i}.txt`), `file ${i}\n`.repeat(100));
    const cell = [
      'same = ctx is context',
      'try:',
      '    ctx["new"] = "x"',
      '    ro = False',
      'except TypeError:',
      '    ro = True',
      'ctx = "rebound"',
      'print(same, ro, context_meta().get("mode"))',
    ].join('\n');
    for (const [limit, mode] of [[undefined, 'eager'], [1500, 'lazy']] as const) {
      root.server.setRespond((r) => (turnOf(r) === 0 ? fence(cell) : turnOf(r) === 1 ? fence('print(ctx is context, type(ctx).__name__)') : fence('FINAL("ok")')));
      const plan = await planPaths(['proj'], { cwd: dir, ...(limit ? { maxTotalBytes: limit } : {}) });
      assert.equal(Boolean(plan.lazy), mode === 'lazy');
      const { result } = await runCollect({ question: 'q', context: { kind: 'plan', plan }, target: plan.target, root: root.client, sub: sub.client, repl });
      assert.equal(result.answer, 'ok');
      const requests = root.server.requests.map((q) => q.parsed!).filter(isRootRequest);
      const turn1 = lastUser(requests.at(-2)!);
      const turn2 = lastUser(requests.at(-1)!);
      assert.match(turn1, new RegExp(`True True ${mode}`), `${mode}: ${turn1}`);
      assert.match(turn1, /restored reserved name\(s\) ctx/);
      assert.match(turn2, /True (ContextDict|LazyContext)/, `${mode}: ${turn2}`);
    }
  });
});
