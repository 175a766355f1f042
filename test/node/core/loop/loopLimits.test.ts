// Every limit ends a run with its typed status; where a root call is still possible the model gets one
// last turn, and a printout is kept as partial findings, never as the answer (docs/rlm-contract.md).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { warmSession, fence, isRootRequest, lastUser, makeRepl, ofType, runCollect, startModel, turnOf } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import type { RunLimits } from '../../../../src/core/loop/loopTypes';

describe('RLM loop: limits', () => {
  let model: Harness;
  let priced: Harness;
  let repl: TestRepl;
  let warm: Awaited<ReturnType<typeof warmSession>>;
  before(async () => {
    repl = makeRepl();
    warm = await warmSession(repl);
    model = await startModel('openai', () => 'unused');
    // $1,000 per million input tokens: 400 tokens cost $0.40.
    priced = await startModel('anthropic', () => 'unused', { pricing: { inputPerMTok: 1000, outputPerMTok: 0 } });
  });
  after(async () => {
    await repl.dispose();
    await model.close();
    await priced.close();
  });

  async function play(harness: Harness, respond: (r: FakeModelRequest) => FakeResponse, limits: Partial<RunLimits>) {
    harness.server.setRespond(respond);
    return runCollect({ question: 'Count the lines', context: { kind: 'text', text: 'a\nb\nc\n' }, root: harness.client, repl, limits, ...warm });
  }

  it('iterations: asks once for the best answer and marks it forced', async () => {
    const { result, events } = await play(model, (r) => (/used all 2 turns/.test(lastUser(r)) ? 'Best I can do:\nFINAL(about 3 lines)' : fence('print(len(context.splitlines()))')), { maxIterations: 2 });
    assert.equal(result.status, 'forced');
    assert.equal(result.forced, true);
    assert.equal(result.answer, 'about 3 lines');
    assert.equal(result.error?.limit, 'iterations');
    assert.equal(ofType(events, 'model.output').filter((m) => m.forcedFinal).length, 1);
    assert.equal(ofType(events, 'answer')[0]?.via, 'forced');
  });

  it('sub-calls: the cap refuses further calls per item, and a model that never answers ends with partial findings, not an answer', async () => {
    const { result, events } = await play(
      model,
      (r) => (isRootRequest(r) ? fence('rs = llm_query_batched(["p"] * 5)\nprint(sum(x.startswith("[ERROR] limit:") for x in rs), "refused")') : 'ok'),
      { maxSubCalls: 3 },
    );
    assert.equal(result.status, 'limit');
    assert.equal(result.error?.limit, 'subCalls');
    assert.equal(result.error?.kind, 'limit');
    assert.equal(ofType(events, 'subcall.started').length, 3);
    assert.equal(result.totals.subCalls, 3);
    assert.equal(result.answer, undefined, 'a printout is never the answer');
    assert.match(result.partial ?? '', /5 refused/, 'the last output is kept as partial findings (the last turn refused all 5)');
    assert.equal(ofType(events, 'answer').length, 0);
    assert.equal(ofType(events, 'run.finished').at(-1)?.partial, result.partial);
  });

  it('total tokens: ends the run before the turn that would exceed it', async () => {
    const { result } = await play(model, () => ({ text: fence('print("step")'), usage: { inputTokens: 400, outputTokens: 10 } }), { maxTotalTokens: 1000 });
    assert.equal(result.status, 'limit');
    assert.equal(result.error?.limit, 'totalTokens');
    assert.equal(result.totals.iterations, 3);
    assert.equal(result.answer, undefined);
    assert.equal(result.partial, 'step');
  });

  it('cost: ends the run when the known cost reaches the cap', async () => {
    const { result } = await play(priced, () => ({ text: fence('print("spent")'), usage: { inputTokens: 400, outputTokens: 1 } }), { maxCostUsd: 1 });
    assert.equal(result.status, 'limit');
    assert.equal(result.error?.limit, 'costUsd');
    assert.equal(result.totals.iterations, 3);
    assert.ok(Math.abs((result.totals.costUsd ?? 0) - 1.2) < 1e-9, String(result.totals.costUsd));
  });

  it('cost: with no turn left, the answer the cells were assembling is offered, marked as a draft', async () => {
    const { result, events } = await play(priced, () => ({ text: fence('answer["content"] = "three lines (draft)"\nprint("drafted")'), usage: { inputTokens: 400, outputTokens: 1 } }), { maxCostUsd: 1 });
    assert.equal(result.status, 'limit');
    assert.equal(result.answer, 'three lines (draft)');
    assert.equal(result.forced, true);
    assert.equal(ofType(events, 'answer')[0]?.via, 'draft');
    assert.equal(result.partial, undefined);
  });

  it('wall time: interrupts the running cell and ends the run', async () => {
    const started = Date.now();
    const { result, events } = await play(model, () => fence('print("before sleep", flush=True)\nimport time\ntime.sleep(30)'), { maxWallTimeMs: 1500 });
    const elapsed = Date.now() - started;
    assert.equal(result.status, 'limit');
    assert.equal(result.error?.limit, 'wallTime');
    // The cell sleeps 30 s; the margin absorbs a loaded machine.
    assert.ok(elapsed < 1500 + 5000, `took ${elapsed} ms`);
    assert.ok(ofType(events, 'cell.finished')[0]?.interrupted || ofType(events, 'cell.finished')[0]?.timedOut);
  });

  it('consecutive errors: ends the run after N failing turns in a row', async () => {
    let turns = 0;
    const { result, events } = await play(
      model,
      (r) => {
        turns = turnOf(r);
        return turns === 0 ? fence('print("fine")') : fence('1 / 0');
      },
      { maxConsecutiveErrors: 3 },
    );
    assert.equal(result.status, 'limit');
    assert.equal(result.error?.limit, 'consecutiveErrors');
    assert.equal(result.totals.iterations, 4);
    assert.equal(ofType(events, 'run.finished')[0]?.error?.limit, 'consecutiveErrors');
  });

  it('warns before a limit is reached', async () => {
    const { events } = await play(model, () => ({ text: fence('print("x")'), usage: { inputTokens: 450, outputTokens: 0 } }), { maxTotalTokens: 1000 });
    const warnings = ofType(events, 'limit.warning');
    assert.equal(warnings[0]?.limit, 'totalTokens');
  });

  it('refuses limits that cannot work, naming the option', async () => {
    await assert.rejects(
      play(model, () => 'x', { maxIterations: 0 }),
      (error: Error) => error.name === 'InvalidLimitError' && /maxIterations/.test(error.message),
    );
  });
});
