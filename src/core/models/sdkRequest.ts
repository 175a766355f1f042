// What both SDK clients do around a request, whatever the wire format: the SDK's constructor options,
// and one request's lifetime (a per-request abort signal, latency, failures mapped to ModelErrors).
import { DeltaCallbackFailure, errorInfo, perRequestSignal } from './clientSetup';
import type { ClientSetup } from './clientSetup';
import type { Completion, CompleteOptions } from './modelTypes';
import { nodeHttpFetch } from './nodeHttpFetch';
import { guardFetch } from './responseGuard';
import { toModelError, type SdkErrorClasses } from './sdkErrorMapping';

/**
 * Constructor options for `new OpenAI(...)` and `new Anthropic(...)`. Each client keeps one SDK for
 * plain and one for streamed requests, because only a streamed request's wait for headers counts
 * as a stall (see ResponseGuardLimits.guardHeaderWait).
 */
export function sdkClientOptions(setup: ClientSetup, requests: 'plain' | 'streamed') {
  // Node's http client behind fetch's signature (nodeHttpFetch.ts): a third of the CPU per request.
  const inner: typeof fetch = setup.fetch ?? nodeHttpFetch;
  return {
    apiKey: setup.sdkApiKey,
    baseURL: setup.endpoint.sdkBaseUrl,
    maxRetries: setup.maxRetries,
    // Explicit: without it the Anthropic SDK refuses a large max_tokens on non-streamed calls, from its own estimate.
    timeout: setup.timeoutMs,
    // Our typed errors carry everything; the SDK's own console logging would only duplicate them.
    logLevel: 'off' as const,
    fetch: guardFetch(inner, {
      stallTimeoutMs: setup.stallTimeoutMs,
      maxResponseBytes: setup.maxResponseBytes,
      responseTimeoutMs: setup.responseTimeoutMs,
      guardHeaderWait: requests === 'streamed',
      // The streaming SDK parses every body it gets as events, whatever its content type.
      eventStream: requests === 'streamed',
    }),
  };
}

/**
 * Runs `send` with its own abort signal linked to the caller's (so the SDK's listener goes away with
 * the request), adds the latency measured from `started`, and turns every failure into a ModelError
 * (a throwing onDelta callback's own error is rethrown as it was).
 */
export async function runSdkRequest(
  setup: ClientSetup,
  sdk: SdkErrorClasses,
  options: CompleteOptions,
  started: number,
  send: (options: CompleteOptions) => Promise<Omit<Completion, 'latencyMs'>>,
): Promise<Completion> {
  const link = perRequestSignal(options.signal);
  try {
    const result = await send({ ...options, ...(link.signal ? { signal: link.signal } : {}) });
    return { ...result, latencyMs: setup.now() - started };
  } catch (error) {
    if (error instanceof DeltaCallbackFailure) throw error.original;
    throw toModelError(error, {
      ...errorInfo(setup),
      ...(setup.config.apiKey ? { apiKey: setup.config.apiKey } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      timeoutMs: setup.timeoutMs,
      sdk,
    });
  } finally {
    link.dispose();
  }
}
