// The sub-call cache inside the loop, through the real SDK and a fake server: a repeated question and a
// follow-up re-reading the same slices send nothing again; errors and cut answers are never stored; a
// refresh sends every call and replaces the entry; a cached call is marked, free, and counted as saved;
// and a large batch is estimated before it is sent, counting only what the cache will not answer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SubCallCache } from '../../../../src/core/models/subCallCache';
import type { SubCallCacheUse } from '../../../../src/core/loop/loopTypes';
import { fence, isRootRequest, makeRepl, ofType, runCollect, startModel, turnOf, warmSession } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';

const PRICES = { inputPerMTok: 1000, outputPerMTok: 1000 };

describe('RLM loop: sub-call cache', () => {
  let root: Harness;
  let sub: Harness;
  let repl: TestRepl;
  let warm: Awaited<ReturnType<typeof warmSession>>;
  let failNext = 0;
  let cutNext = 0;
  let answered = 0;
  before(async () => {
    repl = makeRepl();
    warm = await warmSession(repl);
    root = await startModel('openai', () => 'unused');
    sub = await startModel(
      'anthropic',
      (r) => {
        if (failNext > 0) {
          failNext -= 1;
          return { status: 500, errorType: 'api_error', errorMessage: 'boom' };
        }
        answered += 1;
        if (cutNext > 0) {
          cutNext -= 1;
          return { text: `cut ${answered}`, finishReason: 'length' };
        }
        return `answer ${answered} to ${(r.messages.at(-1)?.content ?? '').slice(0, 12)}`;
      },
      { model: 'fake-sub', pricing: PRICES },
    );
  });
  after(async () => {
    await repl.dispose();
    await root.close();
    await sub.close();
  });

  function rootScript(code: string): void {
    root.server.setRespond((r) => (!isRootRequest(r) ? 'from root' : turnOf(r) === 0 ? fence(code) : fence('FINAL_VAR("out")')));
  }

  function newCache(mode: SubCallCacheUse['mode'] = 'use', dir = mkdtempSync(join(tmpdir(), 'rlm-loop-cache-'))): SubCallCacheUse {
    return { cache: new SubCallCache({ dir, maxBytes: 1 << 20 }), mode };
  }

  const ask = (subCallCache: SubCallCacheUse | undefined, text = 'chapter one\nchapter two\nchapter three') =>
    runCollect({ question: 'q', context: { kind: 'text', text }, root: root.client, sub: sub.client, repl, ...warm, ...(subCallCache ? { subCallCache } : {}) });

  it('asking the same question twice sends none of its sub-calls the second time, and says what it saved', async () => {
    rootScript('out = " | ".join(llm_query_batched([f"Summarise {line}" for line in context.splitlines()]))\nprint(out)');
    const cache = newCache();
    const before = sub.server.completionRequests.length;
    const first = await ask(cache);
    assert.equal(sub.server.completionRequests.length - before, 3);
    const second = await ask(cache);
    assert.equal(sub.server.completionRequests.length - before, 3, 'no sub-call was sent again');
    assert.equal(second.result.answer, first.result.answer);
    const finished = ofType(second.events, 'subcall.finished');
    assert.equal(finished.length, 3);
    assert.ok(finished.every((f) => f.cached === true && f.usage.costUsd === 0 && f.usage.inputTokens === 0), 'marked cached, at no cost');
    assert.equal(second.result.totals.cachedSubCalls, 3);
    const firstSubCost = ofType(first.events, 'subcall.finished').reduce((n, f) => n + (f.usage.costUsd ?? 0), 0);
    assert.ok(firstSubCost > 0);
    assert.ok(Math.abs((second.result.totals.savedUsd ?? 0) - firstSubCost) < 1e-9, `saved ${second.result.totals.savedUsd} = first cost ${firstSubCost}`);
  });

  it('a follow-up that re-reads the same slices sends none of them; a new slice is sent', async () => {
    const cache = newCache();
    rootScript('out = llm_query("Summarise " + context.splitlines()[0])');
    await ask(cache);
    const before = sub.server.completionRequests.length;
    rootScript('out = llm_query("Summarise " + context.splitlines()[0]) + " / " + llm_query("Summarise " + context.splitlines()[1])');
    const followUp = await ask(cache);
    assert.equal(sub.server.completionRequests.length - before, 1, 'only the slice not asked before');
    assert.deepEqual(ofType(followUp.events, 'subcall.finished').map((f) => f.cached === true), [true, false]);
  });

  it('never stores an error or a cut answer', async () => {
    const cache = newCache();
    rootScript('out = llm_query("Summarise the errors")');
    failNext = 1;
    const failed = await ask(cache);
    assert.match(failed.result.answer ?? '', /\[ERROR\]/);
    cutNext = 1;
    const cut = await ask(cache);
    assert.match(cut.result.answer ?? '', /^cut /);
    const before = sub.server.completionRequests.length;
    const third = await ask(cache);
    assert.equal(sub.server.completionRequests.length - before, 1, 'neither the error nor the cut answer was reused');
    assert.match(third.result.answer ?? '', /^answer /);
    assert.equal(cache.cache.entryCount, 1);
  });

  it('a refresh sends every call and its answer replaces the stored one; off sends and stores nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlm-loop-cache-'));
    rootScript('out = llm_query("Summarise the refresh")');
    const first = await ask(newCache('use', dir));
    const before = sub.server.completionRequests.length;
    const refreshed = await ask(newCache('refresh', dir));
    assert.equal(sub.server.completionRequests.length - before, 1, 'refresh: sent');
    assert.notEqual(refreshed.result.answer, first.result.answer);
    const again = await ask(newCache('use', dir));
    assert.equal(again.result.answer, refreshed.result.answer, 'the fresh answer was stored');
    const off = await ask(undefined);
    assert.notEqual(off.result.answer, refreshed.result.answer, 'without a cache: sent');
    assert.equal(new SubCallCache({ dir, maxBytes: 1 << 20 }).entryCount, 1);
  });

  it('estimates a large batch before sending it, leaves out what the cache answers, and refuses one past the cost limit', async () => {
    const cache = newCache();
    rootScript('out = str(len([r for r in llm_query_batched([f"Summarise part {i}" for i in range(60)]) if r.startswith("answer")]))');
    const first = await ask(cache);
    const [estimate] = ofType(first.events, 'batch.estimated');
    assert.ok(estimate && estimate.prompts === 60 && estimate.estimatedCostUsd !== null && estimate.estimatedCostUsd > 0, JSON.stringify(estimate));
    const second = await ask(cache);
    assert.equal(ofType(second.events, 'batch.estimated')[0]?.estimatedCostUsd, 0, 'every prompt is cached: nothing to pay');
    const before = sub.server.completionRequests.length;
    const refused = await runCollect({
      question: 'q',
      context: { kind: 'text', text: 'x' },
      root: root.client,
      sub: sub.client,
      repl,
      ...warm,
      limits: { maxCostUsd: (estimate?.estimatedCostUsd ?? 0) / 2 },
    });
    assert.equal(sub.server.completionRequests.length, before, 'nothing of the refused batch was sent');
    assert.equal(ofType(refused.events, 'batch.estimated')[0]?.refused, true);
    assert.equal(refused.result.answer, '0');
  });
});
