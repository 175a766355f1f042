// The fetch both SDKs send their requests with: Node's own http/https client behind the fetch
// signature. Node's global fetch (undici) costs about 1.6 ms of CPU per small request here, and this
// under 0.9 ms: fetch streams every body (a string too) through an async generator, writing the
// request in several syscalls, and builds web streams and header lists twice over. A fan-out of
// 1,000 sub-calls, 16 at once, completes its requests in waves of 16 on one thread, so every
// millisecond per request is ~16 ms of idle slots per wave.
//
// It takes only what the SDKs send for a model call: an http(s) URL and a string or byte body. Anything
// else (a Request object, a form upload of the batch APIs, a stream) goes to the global fetch, and so
// does a redirect, so the behaviour callers see is fetch's: the same errors (`fetch failed` with the
// socket error as the cause, the signal's reason on an abort), decompressed bodies, followed redirects.
import type * as http from 'node:http';
import { Readable } from 'node:stream';
import type * as zlib from 'node:zlib';

interface Transport {
  request: typeof http.request;
  /** Kept-alive connections, as the global fetch keeps them (idle sockets do not hold the process open). */
  agent: http.Agent;
}

// Loaded on the first request of each kind, not when the engine loads: a process that never sends one
// (or only to a local http server) does not pay for the TLS stack before its first request.
let plain: Transport | undefined;
let secure: Transport | undefined;

function transport(tls: boolean): Transport {
  if (tls) {
    const https = process.getBuiltinModule('node:https');
    return (secure ??= { request: https.request, agent: new https.Agent({ keepAlive: true }) });
  }
  const httpModule = process.getBuiltinModule('node:http');
  return (plain ??= { request: httpModule.request, agent: new httpModule.Agent({ keepAlive: true }) });
}

const zlibModule = (): typeof zlib => process.getBuiltinModule('node:zlib');

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Statuses whose Response may not have a body. */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

type Decoder = () => zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;
const DECODERS: Readonly<Record<string, Decoder>> = {
  gzip: () => zlibModule().createGunzip(),
  'x-gzip': () => zlibModule().createGunzip(),
  deflate: () => zlibModule().createInflate(),
  br: () => zlibModule().createBrotliDecompress(),
};

export function nodeHttpFetch(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = typeof input === 'string' ? safeUrl(input) : input instanceof URL ? input : undefined;
  const body = bodyBytes(init.body);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || body === false || (init.redirect !== undefined && init.redirect !== 'follow')) return fetch(input, init);
  const signal = init.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  return new Promise<Response>((resolve, reject) => {
    // fetch's defaults, which the caller's headers replace.
    const headers: Record<string, string> = { accept: '*/*', 'accept-encoding': 'gzip, deflate, br' };
    if (typeof init.body === 'string') headers['content-type'] = 'text/plain;charset=UTF-8';
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    if (body !== undefined) headers['content-length'] = String(body.byteLength);
    const method = (init.method ?? 'GET').toUpperCase();
    const { request: send, agent } = transport(url.protocol === 'https:');
    let settled = false;
    const fail = (error: unknown): void => {
      if (settled) return;
      settled = true;
      reject(signal?.aborted ? abortReason(signal) : new TypeError('fetch failed', { cause: error }));
    };
    const request = send(url, { method, headers, agent }, (response) => {
      settled = true;
      const status = response.statusCode ?? 0;
      if (REDIRECTS.has(status) && response.headers.location) {
        // Rare for a model API: the global fetch follows it, with its own rules for method and body.
        drain(response);
        signal?.removeEventListener('abort', onAbort);
        resolve(fetch(input, init));
        return;
      }
      try {
        resolve(toResponse(response, url, method, signal, onAbort));
      } catch (error) {
        // A status outside 200-599 (a broken or hostile server), which `new Response` refuses. The global
        // fetch hands such a reply on as an HTTP error; here it is a network error, and never a crash.
        drain(response);
        signal?.removeEventListener('abort', onAbort);
        reject(new TypeError('fetch failed', { cause: error }));
      }
    });
    const onAbort = (): void => {
      request.destroy(abortReason(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      fail(error);
    });
    request.end(body);
  });
}

function toResponse(response: http.IncomingMessage, url: URL, method: string, signal: AbortSignal | undefined, onAbort: () => void): Response {
  const status = response.statusCode ?? 0;
  const headers = new Headers();
  const raw = response.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
  const release = (): void => signal?.removeEventListener('abort', onAbort);
  response.once('close', release);
  // An abort while the body streams ends the body with the signal's reason, as fetch's does.
  if (signal) {
    const onBodyAbort = (): void => {
      response.destroy(abortReason(signal));
    };
    signal.addEventListener('abort', onBodyAbort, { once: true });
    response.once('close', () => signal.removeEventListener('abort', onBodyAbort));
  }
  let bodyStream: Readable = response;
  const encoding = (response.headers['content-encoding'] ?? '').trim().toLowerCase();
  // Own keys only: the server names the encoding, and `constructor` is not a decoder.
  const decoder = Object.hasOwn(DECODERS, encoding) ? DECODERS[encoding] : undefined;
  if (decoder && method !== 'HEAD' && !NULL_BODY.has(status)) {
    const decoded = decoder();
    response.on('error', (error) => decoded.destroy(error));
    bodyStream = response.pipe(decoded) as unknown as Readable;
    headers.delete('content-encoding');
    headers.delete('content-length');
  }
  const noBody = method === 'HEAD' || NULL_BODY.has(status);
  if (noBody) drain(response);
  const result = new Response(noBody ? null : (Readable.toWeb(bodyStream) as ReadableStream<Uint8Array>), { status, statusText: response.statusMessage ?? '', headers });
  Object.defineProperty(result, 'url', { value: url.href });
  return result;
}

/** Reads and drops a body nobody will read; a socket error then has a listener and cannot crash the process. */
function drain(response: http.IncomingMessage): void {
  response.on('error', () => undefined);
  response.resume();
}

/** The body as bytes, undefined for none, false for a kind this client leaves to the global fetch. */
function bodyBytes(body: RequestInit['body']): Uint8Array | undefined | false {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  return false;
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

function abortReason(signal: AbortSignal): Error {
  // fetch rejects with the signal's reason whatever it is; destroy() wants an Error, which every reason here is.
  return (signal.reason ?? new DOMException('This operation was aborted', 'AbortError')) as Error;
}
