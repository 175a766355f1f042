// Prompt caching of the root conversation through the real SDKs: each root request repeats the previous
// one byte for byte before adding the new turn (nothing volatile early in the prompt), Anthropic requests
// carry cache_control on the system prompt and the newest message within the API's four breakpoints,
// a local OpenAI-compatible server gets no prompt_cache_key, and cached input is read into the totals
// and priced at the cache rate.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createModelClient } from '../../../../src/core/models/createModelClient';
import { startFakeModelServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeModelServer, FakeProtocol } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { fence, isRootRequest, makeRepl, runCollect, turnOf, warmSession } from './loopTestKit';
import type { TestRepl } from './loopTestKit';

const TEXT = Array.from({ length: 3000 }, (_, i) => `line ${i}: a record of the log with some words in it`).join('\n');
const PRICES = { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 };

function script(r: FakeModelRequest): string {
  const t = turnOf(r);
  return t < 5 ? `Looking at part ${t}.\n${fence(`print(context[${t * 3000}:${t * 3000 + 2500}])`)}` : fence('FINAL("done")');
}

describe('RLM loop: prompt caching of the root conversation', () => {
  let repl: TestRepl;
  let warm: Awaited<ReturnType<typeof warmSession>>;
  const servers: FakeModelServer[] = [];
  before(async () => {
    repl = makeRepl();
    warm = await warmSession(repl);
  });
  after(async () => {
    await repl.dispose();
    for (const s of servers) await s.close();
  });

  async function sixTurns(protocol: FakeProtocol) {
    const server = await startFakeModelServer({ protocol, promptCache: true, respond: script });
    servers.push(server);
    const root = createModelClient({ provider: protocol, baseUrl: server.baseUrl, model: 'fake-model', apiKey: 'k', maxRetries: 0, pricing: PRICES });
    const { result } = await runCollect({ question: 'What is in the log?', context: { kind: 'text', text: TEXT }, root, repl, ...warm });
    assert.equal(result.status, 'completed', JSON.stringify(result.error));
    const requests = server.completionRequests.filter((r) => r.parsed && isRootRequest(r.parsed));
    assert.equal(requests.length, 6);
    return { result, requests };
  }

  for (const protocol of ['anthropic', 'openai'] as const) {
    it(`${protocol}: every root request starts with the previous one, unchanged`, async () => {
      const { requests, result } = await sixTurns(protocol);
      for (let i = 1; i < requests.length; i++) {
        const previous = requests[i - 1]!.parsed!;
        const current = requests[i]!.parsed!;
        assert.equal(current.system, previous.system, `turn ${i}: the same system prompt`);
        assert.deepEqual(current.messages.slice(0, previous.messages.length), previous.messages, `turn ${i}: the earlier turns are repeated byte for byte`);
      }
      assert.ok((result.totals.cacheReadTokens ?? 0) > 0, 'the fake cache served part of the prompt');
      const full = (result.totals.inputTokens * PRICES.inputPerMTok + result.totals.outputTokens * PRICES.outputPerMTok) / 1e6;
      assert.ok((result.totals.costUsd ?? Infinity) < full, `priced at the cache rate: ${result.totals.costUsd} < ${full}`);
      assert.ok((result.totals.savedUsd ?? 0) > 0);
    });
  }

  it('anthropic: the system prompt and the newest message are marked, never more than four marks', async () => {
    const { requests } = await sixTurns('anthropic');
    for (const request of requests) {
      const body = request.body as { system?: Array<{ cache_control?: unknown }>; messages: Array<{ content: string | Array<{ cache_control?: unknown }> }> };
      assert.ok(Array.isArray(body.system) && body.system[0]?.cache_control, 'system marked');
      const last = body.messages.at(-1)!.content;
      assert.ok(Array.isArray(last) && last.at(-1)?.cache_control, 'newest message marked');
      assert.ok((request.rawBody.match(/"cache_control"/g) ?? []).length <= 4);
    }
  });

  it('openai: a local server gets no prompt_cache_key (only the official endpoint accepts it)', async () => {
    const { requests } = await sixTurns('openai');
    assert.ok(requests.every((r) => !r.rawBody.includes('prompt_cache_key')));
  });

  it('anthropic: a batch of questions over one long slice marks the shared slice, and later calls read it from the cache', async () => {
    const sub = await startFakeModelServer({ protocol: 'anthropic', promptCache: true, latencyMs: 0, respond: () => 'ok' });
    servers.push(sub);
    const root = await startFakeModelServer({
      protocol: 'openai',
      respond: (r) => (turnOf(r) === 0 ? fence('out = llm_query_batched([context[:8000] + "\\nQuestion " + str(i) for i in range(4)])\nprint(out)') : fence('FINAL("done")')),
    });
    servers.push(root);
    const subClient = createModelClient({ provider: 'anthropic', baseUrl: sub.baseUrl, model: 'fake-sub', apiKey: 'k', maxRetries: 0, pricing: PRICES });
    const rootClient = createModelClient({ provider: 'openai', baseUrl: root.baseUrl, model: 'fake-root', apiKey: 'k', maxRetries: 0 });
    const { result } = await runCollect({ question: 'q', context: { kind: 'text', text: TEXT }, root: rootClient, sub: subClient, repl, ...warm, limits: { subCallConcurrency: 1 } });
    assert.equal(result.status, 'completed');
    const bodies = sub.completionRequests.map((r) => r.body as { messages: Array<{ content: Array<{ text: string; cache_control?: unknown }> }> });
    assert.equal(bodies.length, 4);
    for (const body of bodies) {
      const [shared, rest] = body.messages[0]!.content;
      assert.ok(shared?.cache_control && !rest?.cache_control, 'the shared slice is its own marked block');
      assert.equal(shared.text, `${TEXT.slice(0, 8000)}\n`, 'the shared head, cut at the line end before the questions');
    }
    assert.ok((result.totals.cacheReadTokens ?? 0) > 0, 'calls after the first read the slice from the cache');
  });
});
