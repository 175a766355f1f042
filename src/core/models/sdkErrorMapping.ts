// Maps whatever an SDK call threw (the SDKs' own APIError family, undici's fetch errors, JSON
// SyntaxErrors from a broken body) onto the typed ModelError family. Both SDKs share the Stainless
// error shapes, so one mapper serves both; each client passes its SDK's classes for instanceof.
import {
  AuthError,
  ContextTooLongError,
  InvalidResponseError,
  ModelAbortedError,
  ModelError,
  ModelRequestError,
  ModelResponseTooLargeError,
  ModelStallError,
  ModelTimeoutError,
  NetworkError,
  RateLimitError,
  ServerError,
  UnexpectedModelError,
} from './modelErrors';
import type { ModelErrorInfo } from './modelErrors';
import type { ProviderKind } from './modelTypes';
import { ResponseGuardTrip } from './responseGuard';

type ErrorClass = abstract new (...args: never[]) => Error;

export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIUserAbortError: ErrorClass;
  APIConnectionError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
}

export interface ErrorContext {
  provider: ProviderKind;
  endpoint: string;
  model: string;
  /** Scrubbed from every message, with anything else that looks like a key. */
  apiKey?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  sdk: SdkErrorClasses;
}

/** The fields the Stainless APIError carries; read structurally so both SDKs fit. */
interface ApiErrorShape {
  status?: number;
  headers?: { get(name: string): string | null };
  error?: unknown;
  code?: unknown;
  requestID?: string | null;
  message: string;
}

// Phrases providers use for an over-long prompt (OpenAI, Anthropic, vLLM, Ollama, LM Studio, OpenRouter).
const CONTEXT_TOO_LONG =
  /context[_ ]length|maximum context|context window|prompt is too long|too many tokens|input is too long|reduce the length|exceeds? the (model'?s )?(max|context)|max_model_len|request too large|too large for model/i;

const NETWORK_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** Removes the key, and anything shaped like a provider key, from text that reaches users. */
export function redactSecrets(text: string, apiKey?: string): string {
  let out = text;
  if (apiKey && apiKey.length >= 4) out = out.split(apiKey).join('[redacted]');
  return out.replace(/\b(sk-(?:ant-)?[A-Za-z0-9_*-]{6,})/g, '[redacted]');
}

/** The provider's own explanation, dug out of either SDK's error body. */
function providerMessage(error: ApiErrorShape): string {
  const body = error.error as { message?: unknown; error?: { message?: unknown } } | undefined;
  const nested = body?.error?.message;
  if (typeof nested === 'string') return nested;
  if (typeof body?.message === 'string') return body.message;
  return error.message;
}

function networkCode(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function tokenFigures(message: string): { promptTokens?: number; limitTokens?: number } {
  // Anthropic: "prompt is too long: 210000 tokens > 200000 maximum"
  const anthropic = /(\d[\d,]*) tokens > (\d[\d,]*) maximum/.exec(message);
  if (anthropic?.[1] && anthropic[2]) return { promptTokens: toInt(anthropic[1]), limitTokens: toInt(anthropic[2]) };
  // OpenAI: "maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens"
  const limit = /maximum context length is (\d[\d,]*)/i.exec(message)?.[1];
  const prompt = /resulted in (\d[\d,]*) tokens/i.exec(message)?.[1] ?? /requested (\d[\d,]*) tokens/i.exec(message)?.[1];
  return { ...(limit ? { limitTokens: toInt(limit) } : {}), ...(prompt ? { promptTokens: toInt(prompt) } : {}) };
}

function toInt(text: string): number {
  return Number.parseInt(text.replace(/,/g, ''), 10);
}

function retryAfterSeconds(error: ApiErrorShape): number | undefined {
  const raw = error.headers?.get('retry-after-ms');
  if (raw) return Number.parseFloat(raw) / 1000;
  const seconds = Number.parseFloat(error.headers?.get('retry-after') ?? '');
  return Number.isFinite(seconds) ? seconds : undefined;
}

/**
 * The error for a call whose signal fired: a timeout when the signal was a timeout
 * (AbortSignal.timeout, also inside AbortSignal.any), otherwise a cancellation.
 */
export function abortedSignalError(signal: AbortSignal | undefined, info: ModelErrorInfo, when: string): ModelError {
  const reason: unknown = signal?.reason;
  if (reason instanceof Error && reason.name === 'TimeoutError') {
    return new ModelTimeoutError(`the caller's time limit ran out ${when}`, info);
  }
  return new ModelAbortedError(`the request was cancelled ${when}`, info);
}

export function toModelError(error: unknown, ctx: ErrorContext): ModelError {
  if (error instanceof ModelError) return error;
  const base: ModelErrorInfo = { provider: ctx.provider, endpoint: ctx.endpoint, model: ctx.model, cause: error };
  const clean = (text: string): string => redactSecrets(text, ctx.apiKey);

  // The caller's own Stop wins over whatever the interrupted request reported.
  if (ctx.signal?.aborted || error instanceof ctx.sdk.APIUserAbortError) {
    return abortedSignalError(ctx.signal, base, 'while waiting for the model');
  }
  // Directly from a body, or as the cause of the SDK's APIConnectionError when headers never came.
  const trip = causeOfType(error, ResponseGuardTrip);
  if (trip) return guardError(trip, base);
  if (error instanceof ctx.sdk.APIConnectionTimeoutError) {
    const within = ctx.timeoutMs !== undefined ? ` within ${ctx.timeoutMs} ms per attempt` : '';
    return new ModelTimeoutError(`no response${within}, and the SDK's retries ran out`, { ...base, ...(ctx.timeoutMs !== undefined ? { timeoutMs: ctx.timeoutMs } : {}) });
  }
  if (error instanceof ctx.sdk.APIConnectionError) {
    const cause = (error as { cause?: unknown }).cause;
    const code = networkCode(error);
    const why = cause instanceof Error ? `: ${cause.message}${code ? ` (${code})` : ''}` : '';
    return new NetworkError(clean(`could not connect${why}. Is the server running and the base URL right?`), base);
  }
  if (error instanceof ctx.sdk.APIError) {
    return fromApiError(error as unknown as ApiErrorShape, base, clean);
  }
  if (error instanceof SyntaxError) {
    return new InvalidResponseError(clean(`the server sent malformed JSON (${error.message})`), base);
  }
  const code = networkCode(error);
  if (code || (error instanceof TypeError && /terminated|fetch failed|socket/i.test(error.message))) {
    return new NetworkError(clean(`the connection was dropped before the response was complete (${code ?? (error as Error).message})`), base);
  }
  const text = error instanceof Error ? error.message : String(error);
  return new UnexpectedModelError(clean(`unexpected failure: ${text}`), base);
}

function causeOfType<T>(error: unknown, type: abstract new (...args: never[]) => T): T | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    if (e instanceof type) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The user-facing error for a tripped response limit, naming the flag and setting that change it. */
function guardError(trip: ResponseGuardTrip, base: ModelErrorInfo): ModelError {
  if (trip.reason === 'too_large') {
    return new ModelResponseTooLargeError(
      `the response passed the ${megabytes(trip.limit)} MB limit and was cut off; a real answer is far smaller. ` +
        'If this one is genuine, raise --max-response-mb / rlm.maxResponseMb.',
      { ...base, limitBytes: trip.limit, receivedBytes: trip.receivedBytes },
    );
  }
  if (trip.reason === 'deadline') {
    return new ModelTimeoutError(
      `the response was not complete after ${seconds(trip.limit)} s (${trip.receivedBytes} bytes had arrived, ${trip.phase === 'headers' ? 'before the response began' : 'not retried'}). ` +
        'If the server is only slow, raise --response-timeout / rlm.modelResponseTimeoutSeconds.',
      { ...base, timeoutMs: trip.limit },
    );
  }
  const silence = `no bytes arrived for ${seconds(trip.limit)} s`;
  const where =
    trip.phase === 'headers'
      ? `${silence} before the response began (retried within the configured retries)`
      : `the response stalled: ${silence} after ${trip.receivedBytes} bytes (not retried: part of it had arrived)`;
  return new ModelStallError(`${where}. If the server is only slow, raise --stall-timeout / rlm.modelStallTimeoutSeconds.`, {
    ...base,
    stallTimeoutMs: trip.limit,
    phase: trip.phase,
    receivedBytes: trip.receivedBytes,
  });
}

function seconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(3)));
}

function megabytes(bytes: number): string {
  return String(Number((bytes / (1024 * 1024)).toFixed(3)));
}

function fromApiError(error: ApiErrorShape, base: ModelErrorInfo, clean: (text: string) => string): ModelError {
  const status = error.status;
  const message = clean(providerMessage(error));
  const info: ModelErrorInfo = { ...base, ...(status !== undefined ? { status } : {}), ...(error.requestID ? { requestId: error.requestID } : {}) };
  if (status === undefined) {
    // An error event inside a stream (OpenAI `data: {"error":…}`, Anthropic `event: error`).
    return new ServerError(`the server reported an error mid-stream: ${message}`, info);
  }
  if (status === 401) return new AuthError(`the API key was rejected: ${message}. Check the key configured for this endpoint.`, info);
  if (status === 403) return new AuthError(`access denied: ${message}. The key may lack access to this model.`, info);
  if (status === 408) return new ModelTimeoutError(`the server timed out: ${message}`, info);
  if (status === 429) {
    const retryAfter = retryAfterSeconds(error);
    return new RateLimitError(`rate limited, and the SDK's retries ran out: ${message}`, { ...info, ...(retryAfter !== undefined ? { retryAfterSec: retryAfter } : {}) });
  }
  const code = typeof error.code === 'string' ? error.code : '';
  if (status === 413 || code === 'context_length_exceeded' || ((status === 400 || status === 422) && CONTEXT_TOO_LONG.test(message))) {
    return new ContextTooLongError(`the prompt is too long for this model: ${message}`, { ...info, ...tokenFigures(message) });
  }
  if (status >= 500) return new ServerError(`server error, and the SDK's retries ran out: ${message}`, info);
  if (status === 404) return new ModelRequestError(`not found: ${message}. Check the model name and the base URL.`, info);
  return new ModelRequestError(`the request was refused: ${message}`, info);
}
