// llm_query from Python: bounded concurrency in input order, the prompt-size check, the per-call
// timeout and max_tokens, all through the real SDK against a fake server.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { warmSession, fence, isRootRequest, lastUser, makeRepl, ofType, runCollect, startModel, turnOf } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';

describe('RLM loop: sub-calls', () => {
  let root: Harness;
  let sub: Harness;
  let repl: TestRepl;
  let warm: Awaited<ReturnType<typeof warmSession>>;
  const rootSeen: FakeModelRequest[] = [];
  before(async () => {
    repl = makeRepl();
    warm = await warmSession(repl);
    root = await startModel('openai', () => 'unused');
    sub = await startModel('anthropic', (r) => ({ text: `echo ${r.messages[0]?.content ?? ''}`, latencyMs: 100 }), { contextWindowTokens: 8000, model: 'fake-sub' });
  });
  after(async () => {
    await repl.dispose();
    await root.close();
    await sub.close();
  });

  function rootScript(code: string) {
    rootSeen.length = 0;
    root.server.setRespond((r) => {
      // llm_query(model=<root>) reaches this server too, without the system prompt.
      if (!isRootRequest(r)) return 'from root';
      rootSeen.push(r);
      return turnOf(r) === 0 ? fence(code) : fence('FINAL("done")');
    });
  }

  it('runs a batch with at most 16 calls at once and keeps input order', async () => {
    rootScript('rs = llm_query_batched([f"item {i}" for i in range(40)])\nprint(all(r == f"echo item {i}" for i, r in enumerate(rs)), len(rs))');
    const before = sub.server.completionRequests.length;
    const { result, events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: sub.client, repl, ...warm });
    assert.equal(result.status, 'completed');
    assert.match(lastUser(rootSeen[1]!), /True 40/);
    assert.equal(sub.server.completionRequests.length - before, 40);
    assert.ok(sub.server.maxInFlight <= 16 && sub.server.maxInFlight >= 8, `max in flight ${sub.server.maxInFlight}`);
    const started = ofType(events, 'subcall.started');
    assert.deepEqual(started.map((s) => s.batchIndex).sort((a, b) => a! - b!), [...Array(40).keys()]);
    assert.ok(started.every((s) => s.batchSize === 40 && s.batchId === started[0]?.batchId && s.depth === 1));
    // max_tokens is always sent, at the configured per-call default.
    assert.ok(sub.server.completionRequests.slice(before).every((r) => r.parsed?.maxTokens === 4096));
    assert.equal(result.totals.subCalls, 40);
  });

  it('refuses a prompt over the sub model window with an [ERROR] string, sending nothing', async () => {
    rootScript('r = llm_query("x" * 40000)\nprint(r[:80])');
    const before = sub.server.completionRequests.length;
    const { result, events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: sub.client, repl, ...warm, limits: { subCallMaxTokens: 500 } });
    assert.equal(result.status, 'completed');
    assert.equal(sub.server.completionRequests.length, before, 'no request reached the provider');
    assert.match(lastUser(rootSeen[1]!), /\[ERROR\] prompt_too_large: prompt of ~10000 tokens/);
    assert.equal(ofType(events, 'subcall.finished')[0]?.error?.kind, 'prompt_too_large');
  });

  it('gives a slow sub-call an [ERROR] timeout string without failing the batch', async () => {
    sub.server.setRespond((r) => ({ text: 'late', latencyMs: r.messages[0]?.content === 'slow' ? 3000 : 10 }));
    rootScript('rs = llm_query_batched(["fast", "slow", "fast"])\nprint(rs)');
    const { events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: sub.client, repl, ...warm, limits: { subCallTimeoutMs: 400 } });
    const cell = ofType(events, 'cell.finished')[0];
    assert.ok(cell && cell.durationMs < 2500, `the batch took ${cell?.durationMs} ms`);
    const observation = lastUser(rootSeen[1]!);
    assert.match(observation, /'late', '\[ERROR\] timeout: sub-call timed out/);
    assert.equal(ofType(events, 'subcall.finished').filter((s) => s.error?.kind === 'timeout').length, 1);
  });

  it('sends llm_query(model=root) to the root model, and says so when a model is not configured', async () => {
    sub.server.setRespond(() => 'from sub');
    rootScript('a = llm_query("hi", model="fake-model")\nb = llm_query("hi", model="gpt-unknown")\nprint(a, "|", b)');
    const { events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: sub.client, repl, ...warm });
    assert.match(lastUser(rootSeen[1]!), /from root \| from sub/);
    const fallback = ofType(events, 'fallback').find((f) => f.kind === 'model-not-configured');
    assert.match(fallback?.detail ?? '', /gpt-unknown/);
    assert.equal(ofType(events, 'subcall.started')[0]?.model.baseUrl, root.client.endpoint);
  });
});
