// rlm_query: child runs with their own REPL, depth + 1, one event stream; at max depth the call falls
// back to a plain llm_query and the fallback is recorded.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fence, isRootRequest, makeRepl, ofType, runCollect, startModel, turnOf } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { CHILD_RUN_CONCURRENCY } from '../../../../src/core/loop/limits';

function firstUser(request: FakeModelRequest): string {
  return request.messages.find((m) => m.role === 'user')?.content ?? '';
}

/** One responder plays the root at every depth (by question) and the plain sub model. */
function script(request: FakeModelRequest): string {
  if (!isRootRequest(request)) return `sub says: ${request.messages[0]?.content.slice(0, 20)}`;
  const question = firstUser(request);
  const turn = turnOf(request);
  if (question.includes('Question: What number is in the report?')) {
    return turn === 0 ? fence('r = rlm_query("Find the number in this text", context)\nprint(r)') : fence('FINAL_VAR("r")');
  }
  if (question.includes('Question: Find the number in this text')) {
    return turn === 0 ? fence('r2 = rlm_query("Extract the digits", context[:200])\nprint(r2)') : fence('FINAL_VAR("r2")');
  }
  if (question.includes('Question: Extract the digits')) {
    return turn === 0
      ? fence('import re\nd = re.findall(r"\\d+", context)\nhello = rlm_query("say hi", "tiny context")\nprint(d, hello)')
      : fence('FINAL(d[0] + " | " + hello)');
  }
  if (question.includes('Question: Ask six helpers')) {
    return turn === 0
      ? fence('rs = rlm_query_batched([f"Helper {i}: say your number" for i in range(6)], contexts=[str(i) for i in range(6)])\nprint(rs)')
      : fence('FINAL(" ".join(rs))');
  }
  if (question.includes('Question: Ask a slow child')) {
    return turn === 0 ? fence('r = rlm_query("Think forever", "ctx")\nprint(r)') : fence('FINAL("parent gave up")');
  }
  if (question.includes('Question: Think forever')) return fence('import time\nwhile True:\n    time.sleep(0.1)');
  const helper = /Question: Helper (\d+)/.exec(question);
  if (helper) return fence(`FINAL("h${helper[1]}")`);
  return fence('FINAL("unexpected question")');
}

describe('RLM loop: recursion', () => {
  let model: Harness;
  let repl: TestRepl;
  before(async () => {
    repl = makeRepl();
    model = await startModel('openai', script);
  });
  after(async () => {
    await repl.dispose();
    await model.close();
  });

  it('reaches depth 2 through rlm_query and records the depth fallback below it', async () => {
    const { result, events } = await runCollect({
      question: 'What number is in the report?',
      context: { kind: 'text', text: 'Report: the total was 42 units.' },
      root: model.client,
      repl,
      limits: { maxDepth: 2 },
    });
    assert.equal(result.status, 'completed', JSON.stringify(result.error));
    // The grandchild's fallback prompt carries its context, since a plain call cannot see a REPL.
    assert.equal(result.answer, '42 | sub says: say hi\n\nContext:\ntin');
    const runs = ofType(events, 'run.started');
    assert.deepEqual(runs.map((r) => r.depth), [0, 1, 2]);
    assert.equal(runs[1]?.parentRunId, runs[0]?.runId);
    assert.equal(runs[2]?.parentRunId, runs[1]?.runId);
    const children = ofType(events, 'child.finished');
    assert.deepEqual(children.map((c) => c.status), ['completed', 'completed']);
    const fallbacks = ofType(events, 'fallback').filter((f) => f.kind === 'depth-limit');
    assert.equal(fallbacks.length, 1);
    assert.equal(fallbacks[0]?.runId, runs[2]?.runId);
    const finished = ofType(events, 'subcall.finished').filter((s) => s.fallback === 'depth-limit');
    assert.equal(finished.length, 1);
    const seqs = events.map((e) => e.seq);
    assert.deepEqual(seqs, seqs.map((_, i) => i + 1), 'one seq counter across child runs');
    // The root's totals include the children's tokens and sub-calls.
    const rootFinished = ofType(events, 'run.finished').find((r) => r.runId === runs[0]?.runId);
    const childFinished = ofType(events, 'run.finished').find((r) => r.runId === runs[1]?.runId);
    assert.ok(rootFinished && childFinished);
    assert.ok(rootFinished.totals.inputTokens > childFinished.totals.inputTokens);
    assert.equal(rootFinished.totals.subCalls, 3);
  });

  it('runs at most CHILD_RUN_CONCURRENCY children of one batch at once, each with its own REPL, answers in order', async () => {
    const { result, events } = await runCollect({
      question: 'Ask six helpers',
      context: { kind: 'text', text: 'irrelevant' },
      root: model.client,
      repl,
      limits: { maxDepth: 1, subCallConcurrency: 16 },
    });
    assert.equal(result.status, 'completed', JSON.stringify(result.error));
    assert.equal(result.answer, 'h0 h1 h2 h3 h4 h5');
    let running = 0;
    let peak = 0;
    for (const e of events) {
      if (e.type === 'child.started') peak = Math.max(peak, ++running);
      if (e.type === 'child.finished') running--;
    }
    assert.equal(ofType(events, 'child.started').length, 6);
    assert.ok(peak <= CHILD_RUN_CONCURRENCY, `${peak} children ran at once`);
    assert.ok(peak >= 2, 'children of a batch still run concurrently');
  });

  it('falls back to llm_query at max depth 1 and records it', async () => {
    model.server.setRespond((request) => {
      if (!isRootRequest(request)) return 'plain answer';
      return turnOf(request) === 0 ? fence('x = rlm_query("Extract the digits", "abc 7")\nprint(x)') : fence('FINAL_VAR("x")');
    });
    const { result, events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'abc' }, root: model.client, repl, limits: { maxDepth: 0 } });
    assert.equal(result.answer, 'plain answer');
    assert.equal(ofType(events, 'run.started').length, 1);
    assert.equal(ofType(events, 'fallback')[0]?.kind, 'depth-limit');
    model.server.setRespond(script);
  });

  it("a child run stopped by its parent cell's time limit says so, and is not recorded as the user's Stop", async () => {
    const { events } = await runCollect({
      question: 'Ask a slow child',
      context: { kind: 'text', text: 'x' },
      root: model.client,
      repl,
      limits: { cellTimeoutMs: 3000, maxIterations: 3 },
    });
    const child = ofType(events, 'run.finished').find((e) => e.runId !== events[0]?.runId && e.status !== 'completed');
    assert.ok(child, 'the child run finished');
    assert.equal(child.status, 'cancelled');
    assert.equal(child.error?.kind, 'timeout');
    assert.match(child.error?.message ?? '', /time limit and was interrupted/);
    assert.doesNotMatch(child.error?.message ?? '', /by the user/);
  });
});
