// listModels against fake servers speaking OpenAI's and Anthropic's models endpoints: ids sorted,
// known prices attached, a local server free, and a server that cannot list answered with a reason.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startFakeAnthropicServer, startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import { listModels } from '../../../../src/core/models/modelCatalog';

test('an OpenAI-compatible server lists its models, sorted, with the key sent as a bearer token', async (t) => {
  const server = await startFakeOpenAIServer({ models: ['zeta-local', 'alpha-local'] });
  t.after(() => server.close());
  const result = await listModels({ provider: 'openai', baseUrl: server.baseUrl, apiKey: 'sk-list' });
  assert.ok(result.ok, JSON.stringify(result));
  assert.deepEqual(result.models.map((m) => m.id), ['alpha-local', 'zeta-local']);
  // 127.0.0.1 is this machine: no charge.
  assert.equal(result.isLocal, true);
  assert.deepEqual(result.models[0]?.pricing, { inputPerMTok: 0, outputPerMTok: 0 });
});

test("a hosted server's models carry the price table's prices, and unknown ones none", async () => {
  const seen: Array<{ url: string; headers: Record<string, string> }> = [];
  const fakeFetch = async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    seen.push({ url: String(url), headers: init?.headers as Record<string, string> });
    return new Response(JSON.stringify({ data: [{ id: 'claude-sonnet-4-5-20250929', display_name: 'Claude Sonnet 4.5' }, { id: 'mystery-model' }] }), { status: 200 });
  };
  const result = await listModels({ provider: 'anthropic', baseUrl: '', apiKey: 'sk-ant', fetch: fakeFetch as typeof fetch });
  assert.ok(result.ok);
  assert.equal(seen[0]?.url, 'https://api.anthropic.com/v1/models?limit=1000');
  assert.equal(seen[0]?.headers['x-api-key'], 'sk-ant');
  assert.equal(seen[0]?.headers['anthropic-version'], '2023-06-01');
  const sonnet = result.models.find((m) => m.id.startsWith('claude'));
  assert.equal(sonnet?.displayName, 'Claude Sonnet 4.5');
  assert.ok(sonnet?.pricing && sonnet.pricing.inputPerMTok > 0, 'the table knows a dated Sonnet snapshot');
  assert.equal(result.models.find((m) => m.id === 'mystery-model')?.pricing, null);
});

test('an Anthropic-compatible fake server lists through /v1/models', async (t) => {
  const server = await startFakeAnthropicServer({ models: ['claude-fake'] });
  t.after(() => server.close());
  const result = await listModels({ provider: 'anthropic', baseUrl: server.baseUrl });
  assert.ok(result.ok, JSON.stringify(result));
  assert.deepEqual(result.models.map((m) => m.id), ['claude-fake']);
});

test('a refused key, a server without the endpoint and an unreachable one each give a sentence', async (t) => {
  const server = createServer((req, res) => {
    res.statusCode = req.headers.authorization === 'Bearer good' ? 404 : 401;
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const refused = await listModels({ provider: 'openai', baseUrl: base, apiKey: 'bad' });
  assert.deepEqual(refused, { ok: false, reason: `${base} refused the key (HTTP 401) when asked for its models.` });
  const missing = await listModels({ provider: 'openai', baseUrl: base, apiKey: 'good' });
  assert.deepEqual(missing, { ok: false, reason: `${base} does not list its models (HTTP 404).` });
  const closed = await listModels({ provider: 'openai', baseUrl: 'http://127.0.0.1:1/v1' });
  assert.deepEqual(closed, { ok: false, reason: 'http://127.0.0.1:1/v1 could not be reached.' });
  const invalid = await listModels({ provider: 'openai', baseUrl: 'not a url' });
  assert.equal(invalid.ok, false);
});

test('a models list that never ends is cut at 4 MB, even when the caller gave its own signal', { timeout: 30_000 }, async (t) => {
  // Before, the list was read with response.json() and no byte limit, and a caller's signal replaced the 10 s bound.
  let sent = 0;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    const slab = Buffer.alloc(1024 * 1024, ' ');
    res.write('{"data":[');
    const pump = (): void => {
      while (sent < 200 * 1024 * 1024 && !res.destroyed) {
        sent += slab.length;
        if (!res.write(slab)) return void res.once('drain', pump);
      }
      res.end(']}');
    };
    pump();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => {
    server.close();
    server.closeAllConnections();
  });
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const listed = await listModels({ provider: 'openai', baseUrl: base, signal: new AbortController().signal });
  assert.deepEqual(listed, { ok: false, reason: `${base} sent a models list over 4 MB; it was cut off.` });
  assert.ok(sent < 64 * 1024 * 1024, `the server wrote ${sent} bytes before the client left`);
});
