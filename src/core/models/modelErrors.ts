// Typed model errors. Every failure of a model call becomes one of these, whichever SDK raised it,
// so the loop can decide (retry budget, [ERROR] string, stop the run) by `kind` and the edges can
// turn them into sentences. Messages name the provider, endpoint and model, and never the key.
import type { ErrorKind, KindedError } from '../errorKind';
import type { ProviderKind } from './modelTypes';

/**
 * Why the "vscode" provider cannot be built here: the sentence the CLI and the core both give. Here, in
 * a module without the SDKs, so that the CLI's argument checks do not load them.
 */
export const VSCODE_PROVIDER_OUTSIDE_EDITOR =
  'the "vscode" provider uses the models VS Code offers (GitHub Copilot\'s or another extension\'s) and works only inside the VS Code extension. Outside it, use "openai" (also for Ollama, LM Studio, vLLM, OpenRouter) or "anthropic" with an API key or a local server.';

/** The stable kinds (src/core/errorKind.ts) a model call can fail with. */
export type ModelErrorKind = Extract<ErrorKind, 'auth' | 'rate_limit' | 'timeout' | 'context_too_long' | 'server' | 'connection' | 'cancelled' | 'bad_request' | 'bad_response' | 'config' | 'internal'>;

export interface ModelErrorInfo {
  provider: ProviderKind;
  /** The endpoint as shown to users: no credentials, no query string. */
  endpoint: string;
  model: string;
  /** HTTP status, when a response arrived. */
  status?: number;
  /** The provider's request id, for support tickets. */
  requestId?: string;
  cause?: unknown;
}

const PROVIDER_NAMES: Record<ProviderKind, string> = { openai: 'OpenAI-compatible', anthropic: 'Anthropic', vscode: 'VS Code language', mcp: 'MCP client sampling' };

export abstract class ModelError extends Error implements KindedError {
  abstract readonly kind: ModelErrorKind;
  get errorKind(): ErrorKind {
    return this.kind;
  }
  /** Whether trying again later could succeed (the SDK has already used its own retries). */
  abstract readonly retryable: boolean;
  readonly provider: ProviderKind;
  readonly endpoint: string;
  readonly model: string;
  readonly status?: number;
  readonly requestId?: string;
  /** The text after the "where" prefix, for UIs that show the location separately. */
  readonly detail: string;

  constructor(detail: string, info: ModelErrorInfo) {
    const status = info.status !== undefined ? ` (HTTP ${info.status})` : '';
    super(`${PROVIDER_NAMES[info.provider]} model "${info.model}" at ${info.endpoint}${status}: ${detail}`, { cause: info.cause });
    this.name = new.target.name;
    this.provider = info.provider;
    this.endpoint = info.endpoint;
    this.model = info.model;
    this.detail = detail;
    if (info.status !== undefined) this.status = info.status;
    if (info.requestId !== undefined) this.requestId = info.requestId;
  }
}

/** 401/403: the key is missing, wrong, or lacks access to this model. */
export class AuthError extends ModelError {
  readonly kind = 'auth';
  readonly retryable = false;
}

/** 429 after the SDK's own retries (which honour Retry-After) ran out. */
export class RateLimitError extends ModelError {
  readonly kind = 'rate_limit';
  readonly retryable = true;
  readonly retryAfterSec?: number;
  constructor(detail: string, info: ModelErrorInfo & { retryAfterSec?: number }) {
    super(detail, info);
    if (info.retryAfterSec !== undefined) this.retryAfterSec = info.retryAfterSec;
  }
}

export class ModelTimeoutError extends ModelError {
  readonly kind = 'timeout';
  readonly retryable = true;
  readonly timeoutMs?: number;
  constructor(detail: string, info: ModelErrorInfo & { timeoutMs?: number }) {
    super(detail, info);
    if (info.timeoutMs !== undefined) this.timeoutMs = info.timeoutMs;
  }
}

/** The prompt does not fit the model's window, as the provider reported it (or as estimated before sending). */
export class ContextTooLongError extends ModelError {
  readonly kind = 'context_too_long';
  readonly retryable = false;
  readonly promptTokens?: number;
  readonly limitTokens?: number;
  constructor(detail: string, info: ModelErrorInfo & { promptTokens?: number; limitTokens?: number }) {
    super(detail, info);
    if (info.promptTokens !== undefined) this.promptTokens = info.promptTokens;
    if (info.limitTokens !== undefined) this.limitTokens = info.limitTokens;
  }
}

/**
 * The server sent no bytes for the stall limit: before a streamed response began (the SDK retries
 * that like any failed connection), or in the middle of a body (not retried: part of the answer may
 * already have been shown, as with a dropped connection). Kind 'timeout': what went wrong is a time
 * limit on silence, and the remedy is the same as for the other time limits.
 */
export class ModelStallError extends ModelError {
  readonly kind = 'timeout';
  readonly retryable = true;
  readonly stallTimeoutMs: number;
  readonly phase: 'headers' | 'body';
  /** Body bytes received before the silence. */
  readonly receivedBytes: number;
  constructor(detail: string, info: ModelErrorInfo & { stallTimeoutMs: number; phase: 'headers' | 'body'; receivedBytes: number }) {
    super(detail, info);
    this.stallTimeoutMs = info.stallTimeoutMs;
    this.phase = info.phase;
    this.receivedBytes = info.receivedBytes;
  }
}

/** The response grew past the size limit and was cut off. Not retried: the same server would likely do it again. */
export class ModelResponseTooLargeError extends ModelError {
  readonly kind = 'bad_response';
  readonly retryable = false;
  readonly limitBytes: number;
  readonly receivedBytes: number;
  constructor(detail: string, info: ModelErrorInfo & { limitBytes: number; receivedBytes: number }) {
    super(detail, info);
    this.limitBytes = info.limitBytes;
    this.receivedBytes = info.receivedBytes;
  }
}

/** 5xx (after retries), overloaded, or an error event inside a stream. */
export class ServerError extends ModelError {
  readonly kind = 'server';
  readonly retryable = true;
}

/** The connection failed or was dropped (also mid-stream). */
export class NetworkError extends ModelError {
  readonly kind = 'connection';
  readonly retryable = true;
}

/** The caller's AbortSignal fired. */
export class ModelAbortedError extends ModelError {
  readonly kind = 'cancelled';
  readonly retryable = false;
}

/** A 4xx that is none of the above: unknown model, bad parameter. */
export class ModelRequestError extends ModelError {
  readonly kind = 'bad_request';
  readonly retryable = false;
}

/** The server answered with something that is not the protocol: bad JSON, a stream cut short. */
export class InvalidResponseError extends ModelError {
  readonly kind = 'bad_response';
  readonly retryable = true;
}

/** The configuration cannot work: no key for a remote endpoint, a malformed base URL, an unknown provider. */
export class ModelConfigError extends ModelError {
  readonly kind = 'config';
  readonly retryable = false;
}

/** Anything else; the cause is kept so the bug can be found. */
export class UnexpectedModelError extends ModelError {
  readonly kind = 'internal';
  readonly retryable = false;
}
