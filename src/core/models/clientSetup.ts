// What both SDK clients share: their resolved setup, the checks made before anything is sent, and
// the normalisation of finish reasons.
import { estimateMessagesTokens } from './tokenEstimate';
import { ContextTooLongError, ModelRequestError } from './modelErrors';
import { abortedSignalError } from './sdkErrorMapping';
import type { ModelErrorInfo } from './modelErrors';
import type { ResolvedEndpoint } from './endpoint';
import type { ChatMessage, CompleteOptions, ModelConfig, ModelPricing } from './modelTypes';

export interface ClientSetup {
  config: ModelConfig;
  endpoint: ResolvedEndpoint;
  /** The key the SDK sends: the configured one, or a placeholder for local servers. */
  sdkApiKey: string;
  pricing: ModelPricing | null;
  timeoutMs: number;
  maxRetries: number;
  stallTimeoutMs: number;
  maxResponseBytes: number;
  responseTimeoutMs: number;
  now: () => number;
  fetch?: typeof fetch;
}

export function errorInfo(setup: ClientSetup): ModelErrorInfo {
  return { provider: setup.config.provider, endpoint: setup.endpoint.display, model: setup.config.model };
}

const ROLES = new Set(['system', 'user', 'assistant']);

/** Refuses, before any byte is sent, what cannot succeed: bad messages, a fired signal, an over-size prompt. */
export function preflight(setup: ClientSetup, messages: readonly ChatMessage[], options: CompleteOptions): void {
  const info = errorInfo(setup);
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new ModelRequestError('complete() needs at least one message', info);
  }
  messages.forEach((m, i) => {
    if (!m || !ROLES.has(m.role) || typeof m.content !== 'string') {
      throw new ModelRequestError(`message ${i} must be {role: 'system' | 'user' | 'assistant', content: string}`, info);
    }
  });
  if (!messages.some((m) => m.role !== 'system')) {
    throw new ModelRequestError('complete() needs at least one user or assistant message besides the system prompt', info);
  }
  if (options.maxTokens !== undefined && (!Number.isInteger(options.maxTokens) || options.maxTokens <= 0)) {
    throw new ModelRequestError(`maxTokens must be a positive integer, got ${String(options.maxTokens)}`, info);
  }
  if (options.signal?.aborted) throw abortedSignalError(options.signal, info, 'before the request was sent');
  const window = setup.config.contextWindowTokens;
  if (window !== undefined) {
    const promptTokens = estimateMessagesTokens(messages);
    if (promptTokens > window) {
      throw new ContextTooLongError(
        `the prompt is about ${promptTokens} tokens, over this model's configured window of ${window}; it was not sent`,
        { ...info, promptTokens, limitTokens: window },
      );
    }
  }
}

const FINISH_REASONS: Record<string, string> = {
  stop: 'stop',
  end_turn: 'stop',
  stop_sequence: 'stop',
  length: 'length',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  content_filter: 'content_filter',
  refusal: 'content_filter',
  tool_calls: 'tool',
  function_call: 'tool',
  tool_use: 'tool',
};

export function normaliseFinishReason(raw: string | null | undefined): string {
  if (!raw) return 'unknown';
  return FINISH_REASONS[raw] ?? raw;
}

/**
 * Calls the caller's onDelta, keeping its exceptions apart from transport errors so they are
 * rethrown unchanged rather than dressed up as model failures.
 */
export class DeltaSink {
  error: unknown;
  failed = false;
  constructor(private readonly onDelta: ((text: string) => void) | undefined) {}
  push(text: string): boolean {
    if (!this.onDelta || text === '') return true;
    try {
      this.onDelta(text);
      return true;
    } catch (error) {
      this.error = error;
      this.failed = true;
      return false;
    }
  }
}

/** Carries an onDelta exception past the SDK-error mapping, to be rethrown unchanged. */
export class DeltaCallbackFailure {
  constructor(readonly original: unknown) {}
}

/**
 * A fresh signal per request that follows the caller's. The SDKs add an abort listener to the signal
 * they are given and never remove it, so handing them one long-lived run signal for hundreds of
 * sub-calls leaks listeners; this one is dropped with its request, and `dispose` unhooks the link.
 */
export function perRequestSignal(signal: AbortSignal | undefined): { signal: AbortSignal | undefined; dispose: () => void } {
  if (!signal) return { signal: undefined, dispose: () => {} };
  const controller = new AbortController();
  const forward = (): void => controller.abort(signal.reason);
  if (signal.aborted) forward();
  else signal.addEventListener('abort', forward, { once: true });
  return { signal: controller.signal, dispose: () => signal.removeEventListener('abort', forward) };
}
