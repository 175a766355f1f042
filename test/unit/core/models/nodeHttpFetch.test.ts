// The SDKs' fetch on Node's http client must behave as the global fetch does for what callers see:
// decoded bodies, followed redirects, fetch's errors (`fetch failed` with the socket error as the
// cause, the signal's reason on an abort), other bodies handed to the global fetch, and kept-alive
// connections. The model clients' own tests run through it against the fake servers as well.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createTcpServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { nodeHttpFetch } from '../../../../src/core/models/nodeHttpFetch';

async function withServer(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void, body: (base: string, connections: () => number) => Promise<void>): Promise<void> {
  let connections = 0;
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => handle(req, res, text));
  });
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    await body(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, () => connections);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

test('a JSON request goes out whole, and its reply comes back with status, headers and body', async () => {
  await withServer(
    (req, res, body) => {
      res.writeHead(201, { 'content-type': 'application/json', 'x-request-id': 'r1' });
      res.end(JSON.stringify({ method: req.method, length: req.headers['content-length'], type: req.headers['content-type'], body }));
    },
    async (base) => {
      assert.deepEqual(await (await nodeHttpFetch(`${base}/plain`, { method: 'POST', body: 'x' })).json(), { method: 'POST', length: '1', type: 'text/plain;charset=UTF-8', body: 'x' });
      const response = await nodeHttpFetch(`${base}/v1/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"q":"é"}' });
      assert.equal(response.status, 201);
      assert.equal(response.headers.get('x-request-id'), 'r1');
      assert.equal(response.url, `${base}/v1/chat`);
      assert.deepEqual(await response.json(), { method: 'POST', length: '10', type: 'application/json', body: '{"q":"é"}' });
    },
  );
});

test('a gzip body is decoded, as fetch decodes it', async () => {
  await withServer(
    (_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/plain' });
      res.end(gzipSync('hello, decoded'));
    },
    async (base) => {
      const response = await nodeHttpFetch(base);
      assert.equal(response.headers.get('content-encoding'), null);
      assert.equal(await response.text(), 'hello, decoded');
    },
  );
});

test('a redirect is followed, and a form body is sent, by the global fetch', async () => {
  await withServer(
    (req, res, body) => {
      if (req.url === '/old') {
        res.writeHead(307, { location: '/new' });
        res.end();
        return;
      }
      res.end(`${req.url} ${String(req.headers['content-type']).split(';')[0]} ${body.includes('name="purpose"') ? 'form' : body}`);
    },
    async (base) => {
      assert.equal(await (await nodeHttpFetch(`${base}/old`, { method: 'POST', body: 'x' })).text(), '/new text/plain x');
      const form = new FormData();
      form.append('purpose', 'batch');
      assert.equal(await (await nodeHttpFetch(`${base}/files`, { method: 'POST', body: form })).text(), '/files multipart/form-data form');
    },
  );
});

test('connections are kept alive between requests', async () => {
  await withServer(
    (_req, res) => res.end('ok'),
    async (base, connections) => {
      for (let i = 0; i < 3; i++) assert.equal(await (await nodeHttpFetch(base)).text(), 'ok');
      assert.equal(connections(), 1);
    },
  );
});

test("an abort rejects with the signal's reason, before the reply and while the body streams", async () => {
  await withServer(
    (req, res) => {
      if (req.url === '/slow') return; // never answers
      res.writeHead(200);
      res.write('part');
    },
    async (base) => {
      const reason = new Error('stopped by the caller');
      const before = new AbortController();
      const pending = nodeHttpFetch(`${base}/slow`, { signal: before.signal });
      setTimeout(() => before.abort(reason), 20);
      await assert.rejects(pending, (error) => error === reason);
      const during = new AbortController();
      const response = await nodeHttpFetch(`${base}/stream`, { signal: during.signal });
      const reader = response.body!.getReader();
      assert.equal(new TextDecoder().decode((await reader.read()).value), 'part');
      during.abort(reason);
      await assert.rejects(reader.read(), (error) => error === reason);
    },
  );
});

test('a refused connection fails as fetch fails: `fetch failed`, with the socket error as the cause', async () => {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  await new Promise((r) => server.close(r));
  await assert.rejects(nodeHttpFetch(`http://127.0.0.1:${port}/`), (error: unknown) => error instanceof TypeError && error.message === 'fetch failed' && (error.cause as { code?: string }).code === 'ECONNREFUSED');
});

test('a status outside 200-599 fails the request as `fetch failed`, without crashing the process', async () => {
  const server = createTcpServer((socket) => socket.once('data', () => socket.end('HTTP/1.1 999 Odd\r\ncontent-length: 2\r\n\r\nhi')));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as AddressInfo).port;
    await assert.rejects(nodeHttpFetch(`http://127.0.0.1:${port}/`), (error: unknown) => error instanceof TypeError && error.message === 'fetch failed' && error.cause instanceof RangeError);
  } finally {
    await new Promise((r) => server.close(r));
  }
});
