// The fake servers' own behaviour, checked through the real SDKs (so the wire format is what the
// SDKs accept) and through raw fetch where the SDKs would hide the detail.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { startFakeAnthropicServer, startFakeModelServer, startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../../src/eval/fakeServers/fakeServerTypes';

async function withServer<T>(server: FakeModelServer, body: (s: FakeModelServer) => Promise<T>): Promise<T> {
  try {
    return await body(server);
  } finally {
    await server.close();
  }
}

test('openai fake: script is consumed in order, plain JSON with usage', async () => {
  await withServer(await startFakeOpenAIServer({ respond: ['first', { text: 'second', usage: { inputTokens: 7, outputTokens: 3 } }] }), async (server) => {
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'k', maxRetries: 0 });
    const a = await client.chat.completions.create({ model: 'm', messages: [{ role: 'system', content: 'sys' }, { role: 'user', content: 'hello there' }] });
    const b = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'again' }] });
    assert.equal(a.choices[0]?.message.content, 'first');
    assert.equal(a.choices[0]?.finish_reason, 'stop');
    assert.ok((a.usage?.prompt_tokens ?? 0) > 0);
    assert.equal(b.choices[0]?.message.content, 'second');
    assert.equal(b.usage?.prompt_tokens, 7);
    assert.equal(b.usage?.completion_tokens, 3);
    assert.equal(server.remainingScript, 0);
    const first = server.completionRequests[0]?.parsed;
    assert.equal(first?.system, 'sys');
    assert.deepEqual(first?.messages, [{ role: 'user', content: 'hello there' }]);
    assert.equal(server.requests[0]?.headers.authorization, 'Bearer k');
  });
});

test('openai fake: streams chunks, a final usage chunk, and [DONE]', async () => {
  await withServer(await startFakeOpenAIServer({ respond: ['streamed answer text'], chunkChars: 5 }), async (server) => {
    const res = await fetch(`${server.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', stream: true, stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'q' }] }),
    });
    const text = await res.text();
    const datas = text.split('\n\n').filter(Boolean).map((f) => f.replace(/^data: /, ''));
    assert.equal(datas.at(-1), '[DONE]');
    const chunks = datas.slice(0, -1).map((d) => JSON.parse(d) as { choices: Array<{ delta: { content?: string } }>; usage?: { completion_tokens: number } | null });
    assert.equal(chunks.map((c) => c.choices[0]?.delta.content ?? '').join(''), 'streamed answer text');
    assert.equal(chunks.at(-1)?.choices.length, 0);
    assert.equal(chunks.at(-1)?.usage?.completion_tokens, 5);
    assert.ok(chunks.filter((c) => (c.choices[0]?.delta.content ?? '') !== '').length >= 4);
  });
});

test('anthropic fake: function responses see system separately; plain and streamed', async () => {
  const server = await startFakeAnthropicServer({ respond: (req) => `echo ${req.index}: ${req.system ?? '-'} / ${req.messages.at(-1)?.content ?? ''}` });
  await withServer(server, async () => {
    const client = new Anthropic({ baseURL: server.baseUrl, apiKey: 'k', maxRetries: 0 });
    const plain = await client.messages.create({ model: 'claude-x', max_tokens: 100, system: 'be brief', messages: [{ role: 'user', content: 'hi' }] });
    assert.deepEqual(plain.content, [{ type: 'text', text: 'echo 0: be brief / hi' }]);
    assert.equal(plain.stop_reason, 'end_turn');
    assert.ok(plain.usage.input_tokens > 0);
    const stream = client.messages.stream({ model: 'claude-x', max_tokens: 100, messages: [{ role: 'user', content: 'yo' }] });
    const deltas: string[] = [];
    stream.on('text', (t) => deltas.push(t));
    const final = await stream.finalMessage();
    assert.equal(deltas.join(''), 'echo 1: - / yo');
    assert.ok(deltas.length > 1);
    assert.equal(final.usage.output_tokens, Math.ceil('echo 1: - / yo'.length / 4));
    const headers = server.requests[0]?.headers ?? {};
    assert.ok(headers['x-api-key'] === 'k' || headers.authorization === 'Bearer k', 'the SDK presents the key in x-api-key or a bearer header');
  });
});

test('anthropic fake: streams the real event sequence with usage in message_start and message_delta', async () => {
  await withServer(await startFakeAnthropicServer({ respond: [{ text: 'abcdefghij', usage: { inputTokens: 42, outputTokens: 3 } }], chunkChars: 4 }), async (server) => {
    const res = await fetch(`${server.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'c', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'q' }] }),
    });
    assert.match(res.headers.get('content-type') ?? '', /text\/event-stream/);
    const events = (await res.text()).split('\n\n').filter(Boolean).map((frame) => {
      const [eventLine, dataLine] = frame.split('\n');
      return { name: eventLine?.replace('event: ', ''), data: JSON.parse(dataLine?.replace('data: ', '') ?? '{}') as Record<string, unknown> };
    });
    assert.deepEqual(events.map((e) => e.name), [
      'message_start', 'content_block_start', 'ping', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
    ]);
    assert.equal((events[0]?.data.message as { usage: { input_tokens: number } }).usage.input_tokens, 42);
    assert.deepEqual(events[7]?.data, { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } });
  });
});

test('fakes cut text at max_tokens and report length', async () => {
  await withServer(await startFakeAnthropicServer({ respond: ['x'.repeat(400)] }), async (server) => {
    const client = new Anthropic({ baseURL: server.baseUrl, apiKey: 'k', maxRetries: 0 });
    const msg = await client.messages.create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(msg.stop_reason, 'max_tokens');
    assert.equal((msg.content[0] as { text: string }).text.length, 40);
  });
});

test('fakes answer an exhausted script with a non-retryable 500 and list the failure', async () => {
  await withServer(await startFakeModelServer({ protocol: 'openai', respond: [] }), async (server) => {
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'k', maxRetries: 3 });
    await assert.rejects(client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] }), /script exhausted/);
    assert.equal(server.completionRequests.length, 1, 'x-should-retry: false stops the SDK retrying');
    assert.match(server.failures[0] ?? '', /script exhausted/);
  });
});

test('fakes require the configured key and list models', async () => {
  await withServer(await startFakeOpenAIServer({ requireApiKey: 'right', models: ['a', 'b'] }), async (server) => {
    const wrong = new OpenAI({ baseURL: server.baseUrl, apiKey: 'wrong', maxRetries: 0 });
    await assert.rejects(wrong.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] }), (e: unknown) => e instanceof OpenAI.AuthenticationError);
    const right = new OpenAI({ baseURL: server.baseUrl, apiKey: 'right', maxRetries: 0 });
    const models = await right.models.list();
    assert.deepEqual(models.data.map((m) => m.id), ['a', 'b']);
  });
});

test('fakes record aborted requests and survive client disconnects', async () => {
  await withServer(await startFakeOpenAIServer({ respond: () => ({ text: 'slow', latencyMs: 5_000 }) }), async (server) => {
    const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'k', maxRetries: 0 });
    const controller = new AbortController();
    const pending = client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] }, { signal: controller.signal });
    while (server.inFlight === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await assert.rejects(pending);
    while (server.inFlight > 0) await new Promise((r) => setTimeout(r, 5));
    assert.equal(server.completionRequests[0]?.aborted, true);
    server.setRespond(['after abort']);
    const ok = await client.chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'q' }] });
    assert.equal(ok.choices[0]?.message.content, 'after abort');
  });
});

test('fakes hold 1,000 concurrent requests open at once and answer them all', { timeout: 300_000 }, async () => {
  // Every reply waits until all 1,000 requests are inside the server, so the peak concurrency is
  // measured, not hoped for. The release after 240 s only turns a server that cannot hold them into a
  // failed count instead of a hang; it is no speed bound (a loaded machine once needed over 20 s).
  let arrived = 0;
  let releaseAll: () => void = () => undefined;
  const allIn = new Promise<void>((resolve) => (releaseAll = resolve));
  const safety = setTimeout(releaseAll, 240_000);
  const server = await startFakeAnthropicServer({
    respond: async (req) => {
      if (++arrived === 1000) releaseAll();
      await allIn;
      return `r${req.messages[0]?.content ?? ''}`;
    },
  });
  try {
    const client = new Anthropic({ baseURL: server.baseUrl, apiKey: 'k', maxRetries: 0 });
    const results = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => client.messages.create({ model: 'c', max_tokens: 10, messages: [{ role: 'user', content: String(i) }] })),
    );
    results.forEach((r, i) => assert.deepEqual(r.content, [{ type: 'text', text: `r${i}` }]));
    assert.equal(server.completionRequests.length, 1000);
    assert.equal(server.maxInFlight, 1000);
    assert.deepEqual(server.failures, []);
  } finally {
    clearTimeout(safety);
    await server.close();
  }
});
