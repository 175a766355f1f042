// A model server that misbehaves on purpose, for the response guard's tests: it goes silent, never
// answers, streams forever, sends one endless line, or dribbles a valid answer a byte at a time.
// It speaks the OpenAI or Anthropic wire format (streamed when the request asks for it), built from
// the same frames as fakeModelServer.ts, and records every request and whether the client left.
//
// Example:
//   const server = await startHostileServer('openai', { kind: 'endless', intervalMs: 50, deltaChars: 8192 });
//   const client = createModelClient({ provider: 'openai', baseUrl: server.baseUrl, model: 'm', maxResponseBytes: 128 * 1024 });
//   ... await client.complete(...) rejects; server.requests[0]?.clientLeft is true ...
import { createServer } from 'node:http';
import { createGzip } from 'node:zlib';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sleep } from '../../src/eval/fakeServers/fakeHttpHelpers';
import { resolveReply } from '../../src/eval/fakeServers/fakeReply';
import type { FakeModelRequest, FakeProtocol } from '../../src/eval/fakeServers/fakeServerTypes';
import { anthropicPlainBody, anthropicStreamFrames, parseAnthropicRequest } from '../../src/eval/fakeServers/fakeWireAnthropic';
import { openAIPlainBody, openAIStreamFrames, parseOpenAIRequest } from '../../src/eval/fakeServers/fakeWireOpenAI';

export type HostileBehaviour =
  /** Headers and the start of a valid answer (some text included), then silence with the socket open. */
  | { kind: 'silent-after-start' }
  /** Reads the request and never answers, not even headers. */
  | { kind: 'no-headers' }
  /** A valid answer that never ends: a delta of `deltaChars` every `intervalMs` (plain: the content string grows). */
  | { kind: 'endless'; intervalMs: number; deltaChars: number }
  /**
   * Headers, then `bytes` with no newline at all, as fast as the client reads. By default the content
   * type is what the request asked for; `contentType` overrides it, `gzip` compresses the body on the
   * wire, `status` sends it as an error body.
   */
  | { kind: 'huge-line'; bytes: number; contentType?: string; gzip?: boolean; status?: number }
  /** Headers, then one byte every `intervalMs`, forever: never silent for long, never large. */
  | { kind: 'trickle'; intervalMs: number }
  /** Slow but alive: `fillerBytes` filler bytes (an SSE comment, or JSON whitespace) one every `intervalMs`, then a valid answer. */
  | { kind: 'dribble'; intervalMs: number; fillerBytes: number; text: string };

interface HostileRequest {
  stream: boolean;
  /** Response bytes written to the socket. */
  bytesSent: number;
  /** The client closed the connection before the response was complete. */
  clientLeft: boolean;
  receivedAt: number;
  closedAt?: number;
}

export interface HostileServer {
  readonly baseUrl: string;
  readonly requests: HostileRequest[];
  close(): Promise<void>;
}

const PATHS: Record<FakeProtocol, string> = { openai: '/v1/chat/completions', anthropic: '/v1/messages' };
const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' };
const JSON_HEADERS = { 'content-type': 'application/json' };

export async function startHostileServer(protocol: FakeProtocol, behaviour: HostileBehaviour): Promise<HostileServer> {
  const requests: HostileRequest[] = [];
  const server = createServer((req, res) => {
    void handle(req, res).catch(() => res.destroy());
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url?.split('?')[0] !== PATHS[protocol]) {
      res.writeHead(404, JSON_HEADERS).end('{}');
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    const parsed = protocol === 'openai' ? parseOpenAIRequest(body, req.headers, requests.length) : parseAnthropicRequest(body, req.headers, requests.length);
    const record: HostileRequest = { stream: parsed.stream, bytesSent: 0, clientLeft: false, receivedAt: Date.now() };
    requests.push(record);
    const left = new AbortController();
    res.on('close', () => {
      record.closedAt = Date.now();
      if (!res.writableFinished) record.clientLeft = true;
      left.abort();
    });
    const write = (data: string | Buffer): Promise<void> => {
      record.bytesSent += Buffer.byteLength(data);
      // Waits for 'drain' so a huge body goes only as fast as the client reads it.
      if (res.write(data) || left.signal.aborted) return Promise.resolve();
      return new Promise((resolve) => {
        const done = (): void => {
          res.off('drain', done).off('close', done);
          resolve();
        };
        res.on('drain', done).on('close', done);
      });
    };
    await behave(protocol, behaviour, parsed, res, write, left.signal);
  }

  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0 }, resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: protocol === 'openai' ? `${origin}/v1` : origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

type Write = (data: string | Buffer) => Promise<void>;

async function behave(protocol: FakeProtocol, behaviour: HostileBehaviour, request: FakeModelRequest, res: ServerResponse, write: Write, left: AbortSignal): Promise<void> {
  if (behaviour.kind === 'no-headers') return; // the socket stays open until the client leaves
  if (behaviour.kind === 'huge-line' && (behaviour.contentType || behaviour.gzip || behaviour.status)) {
    await hugeLineAs(behaviour, request, res, left);
    return;
  }
  res.writeHead(200, request.stream ? SSE_HEADERS : JSON_HEADERS);
  res.flushHeaders();
  switch (behaviour.kind) {
    case 'silent-after-start': {
      const whole = validAnswer(protocol, request, 'a partial answer that never finishes');
      await write(request.stream ? whole.frames.slice(0, whole.firstDeltaEnd).join('') : whole.plain.slice(0, Math.floor(whole.plain.length / 2)));
      return; // and nothing more
    }
    case 'endless': {
      const delta = 'x'.repeat(behaviour.deltaChars);
      const template = validAnswer(protocol, request, delta);
      await write(request.stream ? template.frames.slice(0, template.firstDeltaEnd).join('') : plainPrefix(protocol));
      const next = request.stream ? template.frames[template.firstDeltaEnd - 1]! : delta;
      while (!left.aborted) {
        await write(next);
        await sleep(behaviour.intervalMs, left);
      }
      return;
    }
    case 'huge-line': {
      const slab = Buffer.alloc(1024 * 1024, 'a');
      await write(request.stream ? 'data: ' : plainPrefix(protocol));
      for (let sent = 0; sent < behaviour.bytes && !left.aborted; sent += slab.length) await write(slab);
      if (!left.aborted) res.end();
      return;
    }
    case 'trickle': {
      await write(request.stream ? 'data: ' : plainPrefix(protocol));
      while (!left.aborted) {
        await write('a');
        await sleep(behaviour.intervalMs, left);
      }
      return;
    }
    case 'dribble': {
      const answer = validAnswer(protocol, request, behaviour.text);
      // Streamed: the filler is an SSE comment in the middle of the stream, which the SDKs skip.
      if (request.stream) await write(answer.frames.slice(0, answer.firstDeltaEnd).join(''));
      const filler = request.stream ? `:${' '.repeat(Math.max(0, behaviour.fillerBytes - 3))}\n\n` : ' '.repeat(behaviour.fillerBytes);
      for (const byte of filler) {
        if (left.aborted) return;
        await write(byte);
        await sleep(behaviour.intervalMs, left);
      }
      res.end(request.stream ? answer.frames.slice(answer.firstDeltaEnd).join('') : answer.plain);
      return;
    }
  }
}

/** The huge line with the content type, encoding and status the behaviour names; gzip is compressed as it is sent. */
async function hugeLineAs(behaviour: Extract<HostileBehaviour, { kind: 'huge-line' }>, request: FakeModelRequest, res: ServerResponse, left: AbortSignal): Promise<void> {
  const type = behaviour.contentType ?? (request.stream ? SSE_HEADERS['content-type'] : JSON_HEADERS['content-type']);
  res.writeHead(behaviour.status ?? 200, { 'content-type': type, ...(behaviour.gzip ? { 'content-encoding': 'gzip' } : {}) });
  const sink = behaviour.gzip ? createGzip() : undefined;
  if (sink) sink.pipe(res);
  const out = sink ?? res;
  const write = (data: string | Buffer): Promise<void> =>
    out.write(data) || left.aborted ? Promise.resolve() : new Promise((resolve) => {
      const done = (): void => {
        out.off('drain', done);
        res.off('close', done);
        resolve();
      };
      out.on('drain', done);
      res.on('close', done);
    });
  const slab = Buffer.alloc(1024 * 1024, 'a');
  await write(request.stream && !behaviour.status ? 'data: ' : '{"error":{"message":"');
  for (let sent = 0; sent < behaviour.bytes && !left.aborted; sent += slab.length) await write(slab);
  if (!left.aborted) out.end();
}

/** A complete valid answer: its SSE frames (and where the first text delta ends), or its plain JSON body. */
function validAnswer(protocol: FakeProtocol, request: FakeModelRequest, text: string): { frames: string[]; firstDeltaEnd: number; plain: string } {
  const reply = resolveReply({ chunks: [text] }, request, { chunkChars: text.length || 1, honourMaxTokens: false });
  if (protocol === 'openai') {
    return { frames: openAIStreamFrames(reply, request, 'chatcmpl-hostile', 0), firstDeltaEnd: 2, plain: JSON.stringify(openAIPlainBody(reply, 'chatcmpl-hostile', 0)) };
  }
  return { frames: anthropicStreamFrames(reply, 'msg_hostile'), firstDeltaEnd: 4, plain: JSON.stringify(anthropicPlainBody(reply, 'msg_hostile')) };
}

/** A plain body cut inside the answer's text, so whatever follows extends one JSON string forever. */
function plainPrefix(protocol: FakeProtocol): string {
  return protocol === 'openai'
    ? '{"id":"chatcmpl-hostile","object":"chat.completion","created":0,"model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"'
    : '{"id":"msg_hostile","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"';
}
