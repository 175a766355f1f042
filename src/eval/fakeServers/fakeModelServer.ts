// Fake OpenAI and Anthropic servers on 127.0.0.1 that speak the real wire formats. They are product
// code: `rlm eval --scripted` runs its reference policy on them; the tests use them too, to drive the
// real SDKs end to end (no in-process mock). They follow a script or a function of the request, inject
// latency, 429 + Retry-After, 5xx, malformed JSON and dropped connections, and record every request.
// They survive 1,000+ concurrent requests and clients that disconnect mid-response.
//
// Example:
//   const server = await startFakeOpenAIServer({
//     respond: [
//       'plain text answer',                                  // a string is { text }
//       { status: 429, retryAfterSec: 0.05 },                 // retried by the SDK after 50 ms
//       { text: 'streamed', chunkDelayMs: 5, usage: { inputTokens: 100, outputTokens: 2 } },
//       { text: 'half of this arrives', dropMidStream: true },
//     ],
//   });
//   const client = new OpenAI({ baseURL: server.baseUrl, apiKey: 'test' });
//   ... server.requests[0].parsed?.messages ...
//   await server.close();
//
// `respond` may instead be `(request) => FakeResponse | Promise<FakeResponse>`, where `request`
// is normalised the same way for both protocols (system text in `system`, not in `messages`).
// Token counts default to ~4 characters per token; text over the request's max tokens is cut and
// reported as finish 'length'. Script exhaustion and a throwing function are answered with a 500
// (marked not-retryable) and listed in `server.failures`. `server.completionRequests` holds only the
// completion calls (with `rawBody`, `parsed`, `aborted`), `server.maxInFlight` the peak concurrency.
// Realistic failure replies (429, overloaded, context too long) are in fakeErrorResponses.ts.
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dropAfter, errorBody, presentedKey, sleep, unauthorizedMessage } from './fakeHttpHelpers';
import { FakeBatchStore } from './fakeBatches';
import type { FakeItemAnswer } from './fakeBatches';
import { FakePromptCache } from './fakePromptCache';
import { resolveReply, toSpec } from './fakeReply';
import type { ResolvedReply } from './fakeReply';
import type {
  FakeModelRequest,
  FakeModelServer,
  FakeProtocol,
  FakeRespondFunction,
  FakeResponse,
  FakeResponseSpec,
  FakeServerOptions,
  RecordedRequest,
} from './fakeServerTypes';
import { anthropicModelsBody, anthropicPlainBody, anthropicStreamErrorFrame, anthropicStreamFrames, parseAnthropicRequest } from './fakeWireAnthropic';
import { FakeRequestError, openAIModelsBody, openAIPlainBody, openAIStreamErrorFrame, openAIStreamFrames, parseOpenAIRequest } from './fakeWireOpenAI';

const COMPLETION_PATH: Record<FakeProtocol, string> = { openai: '/v1/chat/completions', anthropic: '/v1/messages' };

export async function startFakeModelServer(options: FakeServerOptions): Promise<FakeModelServer> {
  const promptCache = options.promptCache ? new FakePromptCache() : undefined;
  const { protocol } = options;
  if (protocol !== 'openai' && protocol !== 'anthropic') {
    throw new Error(`startFakeModelServer: protocol must be 'openai' or 'anthropic', got ${String(protocol)}`);
  }
  const now = options.now ?? Date.now;
  const settings = { chunkChars: options.chunkChars ?? 12, honourMaxTokens: options.honourMaxTokens ?? true };
  const requests: RecordedRequest[] = [];
  const completionRequests: RecordedRequest[] = [];
  const failures: string[] = [];
  let script: FakeResponse[] = [];
  let respondFn: FakeRespondFunction | undefined;
  let completionCount = 0;
  let scriptConsumed = 0;
  let inFlight = 0;
  let maxInFlight = 0;

  function setRespond(respond: FakeResponse[] | FakeRespondFunction): void {
    if (typeof respond === 'function') {
      respondFn = respond;
      script = [];
    } else if (Array.isArray(respond)) {
      respondFn = undefined;
      script = [...respond];
    } else {
      throw new TypeError('respond must be an array of responses or a function of the request');
    }
  }
  setRespond(options.respond ?? []);

  async function nextResponse(request: FakeModelRequest): Promise<FakeResponseSpec> {
    try {
      if (respondFn) return toSpec(await respondFn(request));
      const next = script.shift();
      if (next === undefined) throw new Error(`script exhausted: request ${request.index} arrived after all ${scriptConsumed} scripted responses were used`);
      scriptConsumed++;
      return toSpec(next);
    } catch (error) {
      const message = `fake ${protocol} server: ${error instanceof Error ? error.message : String(error)}`;
      failures.push(message);
      return { status: 500, errorMessage: message, headers: { 'x-should-retry': 'false' } };
    }
  }

  function sendJson(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(payload);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  }

  async function sendReply(res: ServerResponse, request: FakeModelRequest, reply: ResolvedReply, signal: AbortSignal): Promise<void> {
    const { spec } = reply;
    const id = protocol === 'openai' ? `chatcmpl-fake-${request.index}` : `msg_fake_${request.index}`;
    const created = Math.floor(now() / 1000);
    const idHeader = protocol === 'openai' ? { 'x-request-id': `req_fake_${request.index}` } : { 'request-id': `req_fake_${request.index}` };
    const headers = { ...idHeader, ...spec.headers };
    if (!request.stream) {
      const text = spec.malformedJson
        ? '{"id": "broken", "choices": [ {"message": '
        : JSON.stringify(protocol === 'openai' ? openAIPlainBody(reply, id, created) : anthropicPlainBody(reply, id));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
      if (spec.dropMidStream) {
        await dropAfter(res, text.slice(0, Math.floor(text.length / 2)));
        return;
      }
      res.end(text);
      return;
    }
    const frames = protocol === 'openai' ? openAIStreamFrames(reply, request, id, created) : anthropicStreamFrames(reply, id);
    // Index of the first frame after the first text delta: where drops, bad JSON and errors go.
    const firstDeltaEnd = protocol === 'openai' ? 2 : 4;
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
    const delay = spec.chunkDelayMs ?? options.chunkDelayMs ?? 0;
    const dropAt = spec.dropMidStream ? Math.max(firstDeltaEnd, Math.floor(frames.length / 2)) : -1;
    for (let i = 0; i < frames.length; i++) {
      if (signal.aborted) return;
      if (i === dropAt) {
        await dropAfter(res, '');
        return;
      }
      if (i === firstDeltaEnd && spec.malformedJson) {
        res.write(protocol === 'openai' ? 'data: {"id": "broken", "choices": [\n\n' : 'event: content_block_delta\ndata: {"type": "content_block_delta", "delta": \n\n');
      }
      if (i === firstDeltaEnd && spec.streamError) {
        const type = spec.streamError.type ?? (protocol === 'openai' ? 'server_error' : 'overloaded_error');
        res.end(protocol === 'openai' ? openAIStreamErrorFrame(type, spec.streamError.message) : anthropicStreamErrorFrame(type, spec.streamError.message));
        return;
      }
      res.write(frames[i]);
      if (delay > 0 && i > 0 && i < frames.length - 1) await sleep(delay, signal);
    }
    res.end();
  }

  async function handleCompletion(res: ServerResponse, record: RecordedRequest, signal: AbortSignal): Promise<void> {
    if (options.requireApiKey !== undefined && presentedKey(protocol, record.headers as IncomingMessage['headers']) !== options.requireApiKey) {
      sendJson(res, 401, errorBody(protocol, 401, { errorMessage: unauthorizedMessage(protocol, presentedKey(protocol, record.headers as IncomingMessage['headers'])) }));
      return;
    }
    let body: Record<string, unknown>;
    try {
      const parsed: unknown = JSON.parse(record.rawBody);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      body = parsed as Record<string, unknown>;
    } catch {
      sendJson(res, 400, errorBody(protocol, 400, { errorMessage: 'We could not parse the JSON body of your request.' }));
      return;
    }
    record.body = body;
    const index = completionCount++;
    let request: FakeModelRequest;
    try {
      request = protocol === 'openai' ? parseOpenAIRequest(body, record.headers, index) : parseAnthropicRequest(body, record.headers, index);
    } catch (error) {
      if (!(error instanceof FakeRequestError)) throw error;
      sendJson(res, error.status, errorBody(protocol, error.status, { errorMessage: error.message }));
      return;
    }
    record.parsed = request;
    const spec = await nextResponse(request);
    await sleep(spec.latencyMs ?? options.latencyMs ?? 0, signal);
    if (signal.aborted) return;
    if (spec.body !== undefined) {
      res.writeHead(spec.status ?? 200, { 'content-type': 'application/json', ...spec.headers });
      res.end(spec.body);
      return;
    }
    if (spec.status !== undefined && spec.status !== 200) {
      const retryAfter: Record<string, string> = spec.retryAfterSec !== undefined ? { 'retry-after': String(spec.retryAfterSec) } : {};
      sendJson(res, spec.status, errorBody(protocol, spec.status, spec), { ...retryAfter, ...spec.headers });
      return;
    }
    const reply = resolveReply(spec, request, settings);
    // A server with a prompt cache reports what it read and wrote, unless the script set the usage.
    if (promptCache && spec.usage === undefined) {
      const report = protocol === 'anthropic' ? promptCache.anthropic(body) : promptCache.openai(body);
      Object.assign(reply, { inputTokens: report.uncachedTokens, cacheReadTokens: report.cacheReadTokens, cacheWriteTokens: report.cacheWriteTokens });
    }
    await sendReply(res, request, reply, signal);
  }

  /** One request of a batch, answered by `respond` like a non-streamed completion. */
  async function answerBatchItem(body: Record<string, unknown>): Promise<FakeItemAnswer> {
    const index = completionCount++;
    let request: FakeModelRequest;
    try {
      request = protocol === 'openai' ? parseOpenAIRequest({ ...body, stream: false }, {}, index) : parseAnthropicRequest({ ...body, stream: false }, {}, index);
    } catch (error) {
      if (!(error instanceof FakeRequestError)) throw error;
      return { ok: false, status: error.status, error: { type: 'invalid_request_error', message: error.message } };
    }
    batchItemRequests.push(request);
    const spec = await nextResponse(request);
    if (spec.status !== undefined && spec.status !== 200) {
      const errorJson = errorBody(protocol, spec.status, spec) as { error?: { type?: string; message?: string } };
      return { ok: false, status: spec.status, error: { type: errorJson.error?.type ?? 'api_error', message: errorJson.error?.message ?? `Error ${spec.status}.` } };
    }
    const reply = resolveReply(spec, request, settings);
    const id = protocol === 'openai' ? `chatcmpl-fake-${index}` : `msg_fake_${index}`;
    return { ok: true, body: protocol === 'openai' ? openAIPlainBody(reply, id, Math.floor(now() / 1000)) : anthropicPlainBody(reply, id) };
  }
  const batchItemRequests: FakeModelRequest[] = [];
  let origin = '';
  const batchStore = new FakeBatchStore({ protocol, now, answer: answerBatchItem }, options.batches ?? {});

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of req) chunks.push(chunk as Buffer);
    } catch {
      return; // the client went away while sending its body: nothing to answer
    }
    const raw = Buffer.concat(chunks);
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const record: RecordedRequest = {
      method: req.method ?? 'GET',
      path,
      headers: { ...req.headers },
      rawBody: raw.toString('utf8'),
      bytes: raw.length,
      receivedAt: now(),
      aborted: false,
    };
    requests.push(record);
    const controller = new AbortController();
    const isCompletion = req.method === 'POST' && path === COMPLETION_PATH[protocol];
    if (isCompletion) {
      completionRequests.push(record);
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
    }
    res.on('close', () => {
      record.status = res.statusCode;
      record.finishedAt = now();
      if (isCompletion) inFlight--;
      // Only a client that left early has anything to stop (a delay, a stream still being written);
      // aborting after every answer would build an AbortError per request for nothing.
      if (!res.writableFinished) {
        record.aborted = true;
        controller.abort();
      }
    });
    if (isCompletion) {
      await handleCompletion(res, record, controller.signal);
    } else if (batchStore.enabled && (path.startsWith('/v1/batches') || path.startsWith('/v1/files') || path.startsWith('/v1/messages/batches'))) {
      const reply = await batchStore.handle(req.method ?? 'GET', path, raw, String(req.headers['content-type'] ?? ''), origin);
      if (!reply) sendJson(res, 404, errorBody(protocol, 404, { errorMessage: `Unknown route ${req.method ?? ''} ${path} on the fake ${protocol} server` }));
      else if (reply.text !== undefined) {
        res.writeHead(reply.status, { 'content-type': reply.contentType ?? 'text/plain', 'content-length': Buffer.byteLength(reply.text) });
        res.end(reply.text);
      } else sendJson(res, reply.status, reply.json);
    } else if (req.method === 'GET' && path === '/v1/models') {
      const models = options.models ?? ['fake-model'];
      sendJson(res, 200, protocol === 'openai' ? openAIModelsBody(models, Math.floor(now() / 1000)) : anthropicModelsBody(models));
    } else {
      sendJson(res, 404, errorBody(protocol, 404, { errorMessage: `Unknown route ${req.method ?? ''} ${path} on the fake ${protocol} server` }));
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      const message = `fake ${protocol} server crashed on a request: ${error instanceof Error ? error.stack ?? error.message : String(error)}`;
      failures.push(message);
      if (!res.headersSent) sendJson(res, 500, errorBody(protocol, 500, { errorMessage: message }), { 'x-should-retry': 'false' });
      else res.destroy();
    });
  });
  // Fan-out tests open a thousand connections at once; the default backlog (511) would stall them.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0, backlog: 4096 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  origin = `http://127.0.0.1:${port}`;

  return {
    protocol,
    baseUrl: protocol === 'openai' ? `${origin}/v1` : origin,
    port,
    requests,
    completionRequests,
    failures,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get remainingScript() {
      return script.length;
    },
    setRespond,
    batchStore,
    batchItemRequests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export function startFakeOpenAIServer(options: Omit<FakeServerOptions, 'protocol'> = {}): Promise<FakeModelServer> {
  return startFakeModelServer({ ...options, protocol: 'openai' });
}

export function startFakeAnthropicServer(options: Omit<FakeServerOptions, 'protocol'> = {}): Promise<FakeModelServer> {
  return startFakeModelServer({ ...options, protocol: 'anthropic' });
}
