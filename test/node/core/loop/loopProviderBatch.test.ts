// llm_query_batched as a provider batch, through the real SDKs and the fake servers' batch endpoints:
// 40 prompts through each wire come back in prompt order from one batch, billed at the batch price;
// per-item errors and expired items are per-item errors in Python, in order; a server without batches
// falls back to ordinary calls (said once); Stop cancels the provider batch and says what was billed;
// a run interrupted while waiting is taken up again by polling the recorded batch, never sending it twice;
// the sub-call cache answers identical prompts before a batch is built.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordedBatchesOf } from '../../../../src/core/loop/batchOptions';
import type { SubCallBatchOptions } from '../../../../src/core/loop/batchOptions';
import { createRlmRun } from '../../../../src/core/loop/rlmRun';
import { createModelClient } from '../../../../src/core/models/createModelClient';
import type { ModelClient } from '../../../../src/core/models/modelTypes';
import { SubCallCache } from '../../../../src/core/models/subCallCache';
import type { EventRecord } from '../../../../src/core/trajectory/events';
import { TreeBuilder } from '../../../../src/core/trajectory/treeBuilder';
import { startFakeModelServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeBatchOptions } from '../../../../src/eval/fakeServers/fakeBatches';
import type { FakeModelServer, FakeProtocol } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { fence, isRootRequest, makeRepl, ofType, runCollect, startModel, turnOf, warmSession } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';

const PRICES = { inputPerMTok: 1000, outputPerMTok: 1000, batchPriceFactor: 0.5 };
const FAST: SubCallBatchOptions = { mode: 'auto', minPrompts: 10, pollFirstMs: 10, pollMaxMs: 40 };
const FORTY = 'out = "\\n".join(llm_query_batched([f"item {i}" for i in range(40)]))\nprint(out)';

interface Sub {
  server: FakeModelServer;
  client: ModelClient;
}

async function startSub(protocol: FakeProtocol, batches: FakeBatchOptions, now?: () => number): Promise<Sub> {
  const server = await startFakeModelServer({ protocol, batches, ...(now ? { now } : {}), respond: (r) => `answer to ${r.messages.at(-1)?.content ?? ''}` });
  const client = createModelClient({ provider: protocol, baseUrl: server.baseUrl, model: 'fake-sub', maxRetries: 0, pricing: PRICES });
  return { server, client };
}

describe('RLM loop: llm_query_batched as a provider batch', () => {
  let root: Harness;
  let repl: TestRepl;
  let warm: Awaited<ReturnType<typeof warmSession>>;
  const subs: Sub[] = [];
  before(async () => {
    repl = makeRepl();
    warm = await warmSession(repl);
    root = await startModel('openai', () => 'unused');
  });
  after(async () => {
    await repl.dispose();
    await root.close();
    for (const s of subs) await s.server.close();
  });

  function rootScript(code: string): void {
    root.server.setRespond((r) => (!isRootRequest(r) ? 'from root' : turnOf(r) === 0 ? fence(code) : fence('FINAL_VAR("out")')));
  }

  async function sub(protocol: FakeProtocol, batches: FakeBatchOptions = {}, now?: () => number): Promise<Sub> {
    const s = await startSub(protocol, batches, now);
    subs.push(s);
    return s;
  }

  for (const protocol of ['openai', 'anthropic'] as const) {
    it(`${protocol}: 40 prompts go as one batch and come back in prompt order, at the batch price`, async () => {
      // The server's clock moves only as the run waits between polls: what each poll sees is fixed.
      let clock = 1_000_000;
      const s = await sub(protocol, { validatingMs: 20, processingMs: 120 }, () => clock);
      rootScript(FORTY);
      const sleep = async (ms: number): Promise<void> => {
        clock += ms;
      };
      const { result, events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: s.client, repl, ...warm, batch: { ...FAST, sleep } });
      assert.equal(result.status, 'completed', JSON.stringify(result.error));
      assert.equal(s.server.batchStore.creations, 1, 'one provider batch');
      assert.equal(s.server.completionRequests.length, 0, 'no ordinary sub-call was sent');
      assert.equal(s.server.batchItemRequests.length, 40);
      const lines = (result.answer ?? '').split('\n');
      assert.deepEqual(lines, Array.from({ length: 40 }, (_, i) => `answer to item ${i}`));
      const [submitted] = ofType(events, 'batch.submitted');
      assert.ok(submitted);
      assert.equal(submitted.provider, protocol);
      assert.equal(submitted.items.length, 40);
      assert.equal(submitted.providerBatchId, s.server.batchStore.batches[0]!.id);
      const progress = ofType(events, 'batch.progress');
      assert.ok(progress.length >= 2, `progress recorded as it changed (${progress.length})`);
      assert.ok(progress.some((p) => p.counts.processing > 0 && p.counts.succeeded > 0), 'a poll saw part of the batch done');
      const [ended] = ofType(events, 'batch.ended');
      assert.equal(ended?.counts.succeeded, 40);
      assert.equal(ended?.cancelled, undefined);
      // Ordering: the batch is recorded before any progress, and every sub-call finishes after it ends.
      assert.ok(submitted.seq < progress[0]!.seq && progress.at(-1)!.seq < ended!.seq);
      const finished = ofType(events, 'subcall.finished');
      assert.equal(finished.length, 40);
      assert.ok(finished.every((f) => f.usage.batchPrice === true && f.seq > ended!.seq));
      // Half price, and the other half named as saved.
      const cost = finished.reduce((n, f) => n + (f.usage.costUsd ?? 0), 0);
      const full = finished.reduce((n, f) => n + ((f.usage.inputTokens + f.usage.outputTokens) * 1000) / 1e6, 0);
      assert.ok(Math.abs(cost - full / 2) < 1e-9, `cost ${cost} is half of ${full}`);
      assert.ok(Math.abs(finished.reduce((n, f) => n + (f.usage.savedUsd ?? 0), 0) - full / 2) < 1e-9);
      const started = ofType(events, 'subcall.started');
      assert.deepEqual(started.map((e) => e.batchIndex), Array.from({ length: 40 }, (_, i) => i));
    });

    it(`${protocol}: failed and expired requests are per-item errors, in prompt order`, async () => {
      const s = await sub(protocol, { fate: ({ prompt }) => (prompt.endsWith('item 3') ? 'error' : prompt.endsWith('item 7') || prompt.endsWith('item 8') ? 'expire' : 'answer') });
      rootScript('out = "\\n".join(llm_query_batched([f"item {i}" for i in range(12)]))\nprint(out)');
      const { result } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: s.client, repl, ...warm, batch: FAST });
      const lines = (result.answer ?? '').split('\n');
      assert.equal(lines.length, 12);
      lines.forEach((line, i) => {
        if (i === 3) assert.match(line, /^\[ERROR\] batch_errored: .*item|fail/);
        else if (i === 7 || i === 8) assert.match(line, /^\[ERROR\] batch_expired: /);
        else assert.equal(line, `answer to item ${i}`);
      });
    });
  }

  it('an rlm_query_batched of plain model calls (past the depth limit) goes as one provider batch, in order', async () => {
    const s = await sub('anthropic');
    rootScript('out = "\\n".join(rlm_query_batched([f"item {i}" for i in range(12)]))\nprint(out)');
    const { result, events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: s.client, repl, ...warm, batch: FAST, limits: { maxDepth: 0 } });
    assert.equal(result.status, 'completed', JSON.stringify(result.error));
    assert.deepEqual((result.answer ?? '').split('\n'), Array.from({ length: 12 }, (_, i) => `answer to item ${i}`));
    assert.equal(s.server.batchStore.creations, 1, 'one provider batch');
    assert.equal(s.server.completionRequests.length, 0, 'no ordinary sub-call');
    assert.equal(ofType(events, 'child.started').length, 0, 'no child run');
    const finished = ofType(events, 'subcall.finished');
    assert.ok(finished.length === 12 && finished.every((f) => f.usage.batchPrice === true && f.fallback === 'depth-limit'));
    assert.equal(ofType(events, 'fallback').filter((f) => f.kind === 'depth-limit').length, 12, 'each plain call is said, as before');
  });

  it('a server without batch endpoints gets ordinary calls, and it is said once', async () => {
    const s = await sub('openai', { enabled: false });
    rootScript('a = llm_query_batched([f"a {i}" for i in range(12)])\nb = llm_query_batched([f"b {i}" for i in range(12)])\nout = "\\n".join(a + b)\nprint(out)');
    const { result, events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: s.client, repl, ...warm, batch: FAST });
    assert.equal(result.status, 'completed');
    assert.deepEqual((result.answer ?? '').split('\n'), [...Array.from({ length: 12 }, (_, i) => `answer to a ${i}`), ...Array.from({ length: 12 }, (_, i) => `answer to b ${i}`)]);
    assert.equal(s.server.completionRequests.length, 24);
    const said = ofType(events, 'fallback').filter((f) => f.kind === 'batch-unsupported');
    assert.equal(said.length, 1, 'said once');
    assert.match(said[0]!.detail, /no batch endpoint.*ordinary requests/);
    assert.equal(ofType(events, 'batch.submitted').length, 0);
  });

  it('auto leaves a call below the threshold to ordinary requests; always batches it', async () => {
    const s = await sub('anthropic');
    rootScript('out = "\\n".join(llm_query_batched(["p1", "p2", "p3"]))\nprint(out)');
    await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: s.client, repl, ...warm, batch: FAST });
    assert.equal(s.server.batchStore.creations, 0);
    assert.equal(s.server.completionRequests.length, 3);
    await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: s.client, repl, ...warm, batch: { ...FAST, mode: 'always' } });
    assert.equal(s.server.batchStore.creations, 1);
    assert.equal(s.server.completionRequests.length, 3);
  });

  it('the sub-call cache answers identical prompts before the batch is built', async () => {
    const s = await sub('openai');
    const cache = { cache: new SubCallCache({ dir: mkdtempSync(join(tmpdir(), 'rlm-batch-cache-')), maxBytes: 1 << 20 }), mode: 'use' as const };
    rootScript('out = "\\n".join(llm_query_batched([f"item {i}" for i in range(15)]))\nprint(out)');
    await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: s.client, repl, ...warm, batch: FAST, subCallCache: cache });
    assert.equal(s.server.batchStore.creations, 1);
    rootScript('out = "\\n".join(llm_query_batched([f"item {i}" for i in range(30)]))\nprint(out)');
    const { result, events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: s.client, repl, ...warm, batch: FAST, subCallCache: cache });
    assert.equal(s.server.batchStore.creations, 2);
    const [submitted] = ofType(events, 'batch.submitted');
    assert.equal(submitted?.items.length, 15, 'only the prompts the cache did not answer were sent');
    assert.equal(ofType(events, 'subcall.finished').filter((f) => f.cached).length, 15);
    assert.deepEqual((result.answer ?? '').split('\n'), Array.from({ length: 30 }, (_, i) => `answer to item ${i}`));
  });

  /**
   * Forty prompts as one batch, stopped during the third wait. Each poll finds 3 more seconds gone on
   * the server: two requests of the forty run per poll, so part of the batch has run (and is billed)
   * when the Stop comes. Stopping from the event consumer instead raced the polls, which do not wait on
   * a real clock: under load the whole batch could end first.
   */
  async function stoppedWhileWaiting(protocol: FakeProtocol, batches: FakeBatchOptions): Promise<{ s: Sub; run: ReturnType<typeof createRlmRun>; events: EventRecord[] }> {
    let clock = 1_000_000;
    const s = await sub(protocol, { processingMs: 60_000, ...batches }, () => clock);
    rootScript(FORTY);
    const controller = new AbortController();
    const sleep = async (ms: number): Promise<void> => {
      clock += ms;
      if (clock - 1_000_000 >= 9_000) controller.abort();
    };
    const run = createRlmRun({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: s.client, repl, ...warm, batch: { ...FAST, pollFirstMs: 3_000, pollMaxMs: 3_000, sleep }, signal: controller.signal });
    const events: EventRecord[] = [];
    for await (const record of run) events.push(record);
    return { s, run, events };
  }

  it('Stop cancels the provider batch and says what was already billed', async () => {
    const { s, run, events } = await stoppedWhileWaiting('anthropic', {});
    const result = await run.run();
    assert.equal(result.status, 'cancelled');
    assert.ok(s.server.requests.some((r) => r.method === 'POST' && r.path.endsWith('/cancel')), 'the provider batch was cancelled');
    const [ended] = ofType(events, 'batch.ended');
    assert.equal(ended?.cancelled, true);
    assert.ok(ended!.counts.canceled > 0 && ended!.counts.succeeded > 0, JSON.stringify(ended!.counts));
    const finished = ofType(events, 'subcall.finished');
    assert.ok(finished.length === 40 && finished.every((f) => f.error?.kind === 'cancelled'));
    assert.match(finished[0]!.error!.message, new RegExp(`provider batch ${ended!.providerBatchId} was cancelled; ${ended!.counts.succeeded} of its 40 request\\(s\\) had already run and are billed`));
  });

  it('a slow answer to the cancel is still recorded, with what was billed, before the run ends', async () => {
    const { run, events } = await stoppedWhileWaiting('openai', { cancelDelayMs: 600 });
    assert.equal((await run.run()).status, 'cancelled');
    const ended = ofType(events, 'batch.ended').find((e) => e.cancelled);
    assert.ok(ended, `no cancelled batch.ended before the run ended: ${events.map((e) => e.type).join(', ')}`);
    const finished = events.find((e) => e.type === 'run.finished' && e.runId === run.runId);
    assert.ok(finished && ended.seq < finished.seq, 'the cancel is recorded before run.finished');
  });

  it('a run interrupted while waiting is taken up by polling the recorded batch, never sending it again', async (t) => {
    const s = await sub('openai', { processingMs: 300 });
    rootScript(FORTY);
    // The first run is abandoned while it waits (as when the process is killed): its poll does not
    // return while the second run resumes. A real kill ends the process; here the abandoned run is
    // stopped at the end of the test, or it would keep the test process alive after every test passed.
    let releaseAbandoned: () => void = () => undefined;
    const abandoned = new Promise<void>((resolve) => (releaseAbandoned = resolve));
    const stopAbandoned = new AbortController();
    const first = createRlmRun({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: s.client, repl, signal: stopAbandoned.signal, batch: { ...FAST, sleep: () => abandoned } });
    t.after(async () => {
      stopAbandoned.abort();
      releaseAbandoned();
      await first.run().catch(() => undefined);
    });
    const builder = new TreeBuilder();
    for await (const record of first) {
      builder.apply(record);
      if (record.type === 'batch.progress') break;
    }
    assert.equal(s.server.batchStore.creations, 1);
    const recorded = recordedBatchesOf(builder.tree);
    assert.equal(recorded.length, 1);
    const { result, events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: s.client, repl, ...warm, batch: { ...FAST, recorded } });
    assert.equal(s.server.batchStore.creations, 1, 'no second batch was created');
    assert.deepEqual((result.answer ?? '').split('\n'), Array.from({ length: 40 }, (_, i) => `answer to item ${i}`));
    const [submitted] = ofType(events, 'batch.submitted');
    assert.equal(submitted?.resumed, true);
    assert.equal(submitted?.providerBatchId, s.server.batchStore.batches[0]!.id);
  });

  it('a recorded batch is polled only on the endpoint configured now', async () => {
    const s = await sub('openai');
    const other = await sub('openai');
    rootScript(FORTY);
    const { events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: other.client, repl, ...warm, batch: FAST });
    const builder = new TreeBuilder();
    for (const e of events) builder.apply(e);
    const recorded = recordedBatchesOf(builder.tree);
    assert.equal(recorded.length, 1);
    // The same record, continued against another server: its batch id is not sent there; a new batch is.
    const { result } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: s.client, repl, ...warm, batch: { ...FAST, recorded } });
    assert.equal(result.status, 'completed');
    assert.equal(s.server.batchStore.creations, 1);
    assert.ok(!s.server.requests.some((r) => r.path.includes(recorded[0]!.providerBatchId)), 'the recorded id never reached the other server');
  });
});
