// Provider batches against a server that fails or lies (docs/security.md: the model server is
// hostile): a batch that fails as a whole gives each item the provider's own reason; Anthropic's
// results are read from the configured endpoint, never from a `results_url` elsewhere (which would
// get the API key); a malformed result line costs only its own request; duplicated and unknown
// custom ids answer nothing extra; wild counts are clamped before they are recorded; a results file
// or poll reply over the reply cap fails cleanly; a batch that never ends is cancelled at the run's wall-time limit.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SubCallBatchOptions } from '../../../../src/core/loop/batchOptions';
import { createModelClient } from '../../../../src/core/models/createModelClient';
import type { ModelConfig } from '../../../../src/core/models/modelTypes';
import { startFakeModelServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeBatchOptions } from '../../../../src/eval/fakeServers/fakeBatches';
import type { FakeModelServer, FakeProtocol } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { fence, isRootRequest, makeRepl, ofType, runCollect, startModel, turnOf, warmSession } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';

const PRICES = { inputPerMTok: 1000, outputPerMTok: 1000, batchPriceFactor: 0.5 };
const FAST: SubCallBatchOptions = { mode: 'always', pollFirstMs: 5, pollMaxMs: 20 };
const TWELVE = 'out = "\\n".join(llm_query_batched([f"item {i}" for i in range(12)]))\nprint(out)';
const ANSWERS = Array.from({ length: 12 }, (_, i) => `answer to item ${i}`);

describe('RLM loop: provider batches from a failing or hostile server', () => {
  let root: Harness;
  let repl: TestRepl;
  let warm: Awaited<ReturnType<typeof warmSession>>;
  const servers: FakeModelServer[] = [];
  before(async () => {
    repl = makeRepl();
    warm = await warmSession(repl);
    root = await startModel('openai', () => 'unused');
    root.server.setRespond((r) => (!isRootRequest(r) ? 'from root' : turnOf(r) === 0 ? fence(TWELVE) : fence('FINAL_VAR("out")')));
  });
  after(async () => {
    await repl.dispose();
    await root.close();
    for (const s of servers) await s.close();
  });

  async function sub(protocol: FakeProtocol, batches: FakeBatchOptions, config: Partial<ModelConfig> = {}) {
    const server = await startFakeModelServer({ protocol, batches, respond: (r) => `answer to ${r.messages.at(-1)?.content ?? ''}` });
    servers.push(server);
    const client = createModelClient({ provider: protocol, baseUrl: server.baseUrl, model: 'fake-sub', maxRetries: 0, pricing: PRICES, ...config });
    return { server, client };
  }

  async function run(s: Awaited<ReturnType<typeof sub>>, batch: SubCallBatchOptions = FAST, limits = {}) {
    const { result, events } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: root.client, sub: s.client, repl, ...warm, batch, limits });
    return { result, events, lines: (result.answer ?? '').split('\n') };
  }

  it("openai: a batch that fails as a whole gives every item the provider's own reason, and records it once", async () => {
    const s = await sub('openai', { failWith: [{ code: 'invalid_request', message: 'model fake-sub is not available for batches', line: 1 }, { code: 'invalid_request', message: 'model fake-sub is not available for batches', line: 2 }] });
    const { lines, events } = await run(s);
    assert.equal(lines.length, 12);
    for (const line of lines) assert.match(line, /^\[ERROR\] batch_errored: provider batch \S+ failed \(failed\): invalid_request: model fake-sub is not available for batches \(line 1\); invalid_request: .*\(line 2\)$/);
    const ended = ofType(events, 'batch.ended');
    assert.equal(ended.length, 1);
    assert.match(ended[0]!.failure ?? '', /invalid_request: model fake-sub is not available/);
    assert.equal(s.server.batchItemRequests.length, 0, 'nothing ran');
  });

  it('anthropic: errored requests carry the error type and message, in order', async () => {
    const s = await sub('anthropic', { fate: ({ index }) => (index === 5 ? 'error' : 'answer') });
    const { lines } = await run(s);
    lines.forEach((line, i) => (i === 5 ? assert.match(line, /^\[ERROR\] batch_errored: invalid_request_error: the fake server was told to fail request /) : assert.equal(line, ANSWERS[i])));
  });

  it("anthropic: results are read from the configured endpoint, never from a results_url on another host (it would get the key)", async () => {
    const seen: Array<{ url: string; key: string | undefined }> = [];
    const elsewhere = createServer((req, res) => {
      seen.push({ url: req.url ?? '', key: req.headers['x-api-key'] as string | undefined });
      res.writeHead(200, { 'content-type': 'application/binary' });
      res.end('');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    try {
      const port = (elsewhere.address() as AddressInfo).port;
      const s = await sub('anthropic', { rewriteObject: (json) => (json.results_url ? { ...json, results_url: `http://127.0.0.1:${port}/steal` } : json) }, { apiKey: 'sk-ant-test-key-for-results-url' });
      const { lines } = await run(s);
      assert.deepEqual(seen, [], 'the other host got no request');
      assert.deepEqual(lines, ANSWERS);
    } finally {
      await new Promise<void>((resolve) => elsewhere.close(() => resolve()));
    }
  });

  for (const protocol of ['openai', 'anthropic'] as const) {
    it(`${protocol}: a malformed result line costs only its own request`, async () => {
      const s = await sub(protocol, { rewriteResults: (text) => text.split('\n').map((l) => (l.includes('"q3-') ? '{"custom_id": "q3-' : l)).join('\n') });
      const { lines } = await run(s);
      lines.forEach((line, i) => (i === 3 ? assert.match(line, /^\[ERROR\] bad_response: provider batch \S+ ended \(\w+\) without a result for this request; 1 line\(s\) of its results were not JSON objects/) : assert.equal(line, ANSWERS[i])));
    });

    it(`${protocol}: a custom id given twice counts once (its first line), and ids the batch did not send answer nothing`, async () => {
      // Each line again with a forged answer, and lines under custom ids of another batch.
      const forge = (l: string): string => l.replaceAll('answer to item', 'forged');
      const s = await sub(protocol, {
        rewriteResults: (text) => {
          const real = text.split('\n').filter((l) => l.trim() !== '');
          return [...real, ...real.map(forge), ...real.map((l) => forge(l).replace(/"q(\d+)-/, '"other$1-'))].join('\n');
        },
      });
      const { lines, events } = await run(s);
      assert.deepEqual(lines, ANSWERS);
      const finished = ofType(events, 'subcall.finished');
      assert.equal(finished.length, 12);
      const billed = finished.reduce((n, f) => n + f.usage.inputTokens, 0);
      assert.ok(billed > 0 && finished.every((f) => f.usage.inputTokens === finished[0]!.usage.inputTokens), 'each request billed once');
    });

    it(`${protocol}: counts the server makes up are clamped to what was sent before they are recorded`, async () => {
      const wild = protocol === 'openai' ? { request_counts: { total: -3, completed: 1e15, failed: 'many' } } : { request_counts: { processing: -7, succeeded: 1e15, errored: 0.5, canceled: null, expired: 2 } };
      const s = await sub(protocol, { processingMs: 0, rewriteObject: (json) => ({ ...json, ...wild }) });
      const { events } = await run(s);
      const recorded = [...ofType(events, 'batch.progress'), ...ofType(events, 'batch.ended')];
      assert.ok(recorded.length > 0);
      for (const e of recorded) {
        const c = e.counts;
        assert.equal(c.total, 12);
        for (const n of [c.succeeded, c.errored, c.expired, c.canceled, c.processing]) assert.ok(Number.isInteger(n) && n >= 0 && n <= 12, JSON.stringify(c));
        assert.ok(c.succeeded + c.errored + c.expired + c.canceled + c.processing <= 12, JSON.stringify(c));
      }
    });

    it(`${protocol}: a results file over the reply cap fails its items cleanly, with the cap named`, async () => {
      const s = await sub(protocol, { rewriteResults: (text) => `${text}${'x'.repeat(300_000)}\n` }, { maxResponseBytes: 64 * 1024 });
      const { result, lines } = await run(s);
      assert.equal(result.status, 'completed');
      assert.equal(lines.length, 12);
      for (const line of lines) assert.match(line, /^\[ERROR\] bad_response: .*passed the [\d.]+ MB limit/);
    });

    it(`${protocol}: a server id that is not a batch id is refused before it is recorded or polled`, async () => {
      const s = await sub(protocol, { rewriteObject: (json) => ({ ...json, id: '../../v1/files/secret' }) });
      const { lines, events } = await run(s);
      for (const line of lines) assert.match(line, /^\[ERROR\] bad_response: .*not a batch id/);
      assert.equal(ofType(events, 'batch.submitted').length, 0);
    });
  }

  it('a poll reply over the reply cap fails the items cleanly; the batch stays in the record to be taken up', async () => {
    let replies = 0;
    const s = await sub('openai', { processingMs: 1_000_000, rewriteObject: (json) => (++replies === 1 ? json : { ...json, padding: 'x'.repeat(300_000) }) }, { maxResponseBytes: 64 * 1024 });
    const { result, lines, events } = await run(s);
    assert.equal(result.status, 'completed');
    for (const line of lines) assert.match(line, /^\[ERROR\] bad_response: .*passed the [\d.]+ MB limit/);
    assert.equal(ofType(events, 'batch.submitted').length, 1, 'recorded before the first poll');
    assert.equal(ofType(events, 'batch.ended').length, 0, 'never said to have ended: rlm continue can poll it again');
  });

  it('a batch that never ends is cancelled at the run wall-time limit, saying what was billed', async () => {
    const s = await sub('openai', { neverEnds: true });
    const { result, events } = await run(s, { ...FAST, pollFirstMs: 50, pollMaxMs: 50 }, { maxWallTimeMs: 2_000 });
    assert.notEqual(result.status, 'completed');
    const [ended] = ofType(events, 'batch.ended');
    assert.equal(ended?.cancelled, true);
    assert.equal(s.server.batchStore.creations, 1);
  });
});
