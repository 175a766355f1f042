// Both clients, through the real SDKs, against the fake servers: plain and streamed completions,
// usage and cost, request shape (system field, max_tokens, stream_options), official-endpoint paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspect } from 'node:util';
import { createModelClient } from '../../../../src/core/models/createModelClient';
import type { ChatMessage } from '../../../../src/core/models/modelTypes';
import { startFakeAnthropicServer, startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import { PROVIDERS, redirectFetch, withClient } from './modelTestSupport';

const conversation: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'What is 2+2?' },
];

for (const provider of PROVIDERS) {
  test(`${provider}: plain completion returns text, usage, finish reason, model and latency`, async () => {
    let tick = 1000;
    await withClient(
      provider,
      { respond: [{ text: 'Four.', usage: { inputTokens: 21, outputTokens: 2 }, model: 'served-model' }] },
      { pricing: { inputPerMTok: 1_000_000, outputPerMTok: 2_000_000 } },
      async (client, server) => {
        const result = await client.complete(conversation, { maxTokens: 50, temperature: 0 });
        assert.equal(result.text, 'Four.');
        assert.equal(result.finishReason, 'stop');
        assert.equal(result.model, 'served-model');
        assert.equal(result.usage.inputTokens, 21);
        assert.equal(result.usage.outputTokens, 2);
        assert.equal(result.usage.costUsd, 21 + 4, 'configured price: $1 per input token, $2 per output token');
        assert.equal(result.latencyMs, 7);
        const req = server.completionRequests[0]?.parsed;
        assert.equal(req?.system, 'You are terse.');
        assert.deepEqual(req?.messages, [{ role: 'user', content: 'What is 2+2?' }]);
        assert.equal(req?.maxTokens, 50);
        assert.equal(req?.temperature, 0);
        assert.equal(req?.stream, false);
      },
      { now: () => (tick += 7) - 7 },
    );
  });

  test(`${provider}: streamed completion delivers deltas in order and the final usage`, async () => {
    const text = 'The answer is four, as anyone can check.';
    await withClient(provider, { respond: [text], chunkChars: 6 }, {}, async (client, server) => {
      const deltas: string[] = [];
      const result = await client.complete(conversation, { onDelta: (d) => deltas.push(d) });
      assert.ok(deltas.length >= 6, `expected several deltas, got ${deltas.length}`);
      assert.equal(deltas.join(''), text);
      assert.equal(result.text, text);
      assert.equal(result.finishReason, 'stop');
      assert.equal(result.usage.outputTokens, Math.ceil(text.length / 4));
      assert.ok(result.usage.inputTokens > 0);
      assert.equal(result.usage.estimated, undefined, 'usage came from the server');
      assert.equal(result.usage.costUsd, 0, 'a local server is a known $0');
      const body = server.completionRequests[0]?.body ?? {};
      assert.equal(body.stream, true);
      if (provider === 'openai') assert.deepEqual(body.stream_options, { include_usage: true });
    });
  });

  test(`${provider}: max-token cut-off is reported as finish reason "length"`, async () => {
    await withClient(provider, { respond: ['word '.repeat(100)] }, {}, async (client) => {
      const result = await client.complete(conversation, { maxTokens: 5 });
      assert.equal(result.finishReason, 'length');
      assert.equal(result.text.length, 20);
    });
  });

  test(`${provider}: stop sequences are sent in the provider's field`, async () => {
    await withClient(provider, { respond: ['ok'] }, {}, async (client, server) => {
      await client.complete(conversation, { stop: ['```'] });
      const body = server.completionRequests[0]?.body ?? {};
      assert.deepEqual(provider === 'openai' ? body.stop : body.stop_sequences, ['```']);
    });
  });

  test(`${provider}: a local base URL needs no key`, async () => {
    await withClient(provider, { respond: ['hi'] }, { apiKey: undefined }, async (client, server) => {
      assert.equal((await client.complete(conversation)).text, 'hi');
      assert.equal(client.endpoint, server.baseUrl.replace(/\/$/, ''));
      assert.ok(server.requests[0]?.headers.authorization || server.requests[0]?.headers['x-api-key'], 'the SDK still sends a placeholder');
    });
  });
}

test('anthropic: system prompt travels in its own field and max_tokens defaults to 4096', async () => {
  await withClient('anthropic', { respond: ['ok'] }, {}, async (client, server) => {
    await client.complete([{ role: 'system', content: 'A' }, { role: 'user', content: 'q' }, { role: 'assistant', content: 'a' }, { role: 'system', content: 'B' }, { role: 'user', content: 'q2' }]);
    const body = server.completionRequests[0]?.body ?? {};
    assert.equal(body.system, 'A\n\nB');
    assert.equal(body.max_tokens, 4096);
    assert.deepEqual(body.messages, [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: 'q2' },
    ]);
  });
});

test('openai: a server that ignores include_usage gets estimated counts, marked as estimated', async () => {
  const chunk = (delta: object, finish: string | null) =>
    `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const body = chunk({ role: 'assistant', content: 'abcdefgh' }, null) + chunk({}, 'stop') + 'data: [DONE]\n\n';
  await withClient('openai', { respond: [{ body, headers: { 'content-type': 'text/event-stream' } }] }, {}, async (client) => {
    const result = await client.complete(conversation, { onDelta: () => undefined });
    assert.equal(result.text, 'abcdefgh');
    assert.equal(result.usage.outputTokens, 2);
    assert.equal(result.usage.estimated, true);
  });
});

test('openai official endpoint: requires a key, uses max_completion_tokens, prices from the table', async () => {
  assert.throws(() => createModelClient({ provider: 'openai', model: 'gpt-4o-mini' }), (e: Error) => e.name === 'ModelConfigError' && /OPENAI_API_KEY/.test(e.message));
  const server = await startFakeOpenAIServer({ respond: [{ text: 'ok', usage: { inputTokens: 1_000_000, outputTokens: 1_000_000, cacheReadTokens: 0 } }], requireApiKey: 'sk-real' });
  try {
    const client = createModelClient({ provider: 'openai', model: 'gpt-4o-mini', apiKey: 'sk-real', maxRetries: 0 }, { fetch: redirectFetch('https://api.openai.com', server) });
    assert.equal(client.endpoint, 'https://api.openai.com/v1');
    const result = await client.complete(conversation, { maxTokens: 10 });
    assert.equal(server.completionRequests[0]?.body?.max_completion_tokens, 10);
    assert.equal(server.completionRequests[0]?.body?.max_tokens, undefined);
    assert.ok(Math.abs((result.usage.costUsd ?? NaN) - (0.15 + 0.6)) < 1e-9, `gpt-4o-mini: $0.15 + $0.60 per M, got ${result.usage.costUsd}`);
  } finally {
    await server.close();
  }
});

test('anthropic official endpoint: unknown models count tokens with cost null, cached tokens priced apart', async () => {
  const server = await startFakeAnthropicServer({
    respond: [
      { text: 'ok', usage: { inputTokens: 100, outputTokens: 10 } },
      { text: 'ok', usage: { inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 1_000_000, cacheWriteTokens: 1_000_000 } },
    ],
  });
  try {
    const fetchImpl = redirectFetch('https://api.anthropic.com', server);
    const unknown = createModelClient({ provider: 'anthropic', model: 'claude-future-9', apiKey: 'k', maxRetries: 0 }, { fetch: fetchImpl });
    const a = await unknown.complete(conversation);
    assert.equal(a.usage.inputTokens, 100);
    assert.equal(a.usage.costUsd, null);
    const sonnet = createModelClient({ provider: 'anthropic', model: 'claude-sonnet-4-5-20250929', apiKey: 'k', maxRetries: 0 }, { fetch: fetchImpl });
    const b = await sonnet.complete(conversation);
    assert.equal(b.usage.inputTokens, 3_000_000, 'inputTokens is the whole prompt, cached parts included');
    assert.equal(b.usage.cacheReadTokens, 1_000_000);
    assert.equal(b.usage.cacheWriteTokens, 1_000_000);
    assert.ok(Math.abs((b.usage.costUsd ?? NaN) - (3 + 0.3 + 3.75)) < 1e-9, `got ${b.usage.costUsd}`);
  } finally {
    await server.close();
  }
});

test('a client never shows its key when logged or serialised', () => {
  const key = 'sk-secret-0123456789abcdef';
  for (const provider of PROVIDERS) {
    const client = createModelClient({ provider, model: 'm', apiKey: key });
    assert.ok(!inspect(client, { depth: 10, showHidden: true }).includes(key), `${provider}: inspect shows the key`);
    assert.ok(!JSON.stringify(client).includes(key), `${provider}: JSON shows the key`);
  }
});
