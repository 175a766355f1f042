// Ready-made failure replies with the wording and fields real providers use, so tests of the loop
// and the UI can script realistic failures without knowing each provider's error format.
import type { FakeProtocol, FakeResponseSpec } from '../../src/eval/fakeServers/fakeServerTypes';

/** A 429 with Retry-After; the SDKs wait that long and retry. */
export function rateLimited(retryAfterSec = 0.05): FakeResponseSpec {
  return { status: 429, retryAfterSec };
}

/** A 500 (retried by the SDKs); a short Retry-After keeps tests fast. */
export function serverError(retryAfterSec = 0.01): FakeResponseSpec {
  return { status: 500, retryAfterSec };
}

/** Anthropic's 529 overloaded_error, or OpenAI's 503. */
export function overloaded(protocol: FakeProtocol, retryAfterSec = 0.01): FakeResponseSpec {
  return protocol === 'anthropic' ? { status: 529, retryAfterSec } : { status: 503, retryAfterSec };
}

/** The 400 each provider returns for a prompt over the model's window. */
export function contextTooLong(protocol: FakeProtocol, promptTokens = 210_000, limitTokens = 200_000): FakeResponseSpec {
  if (protocol === 'anthropic') {
    return { status: 400, errorType: 'invalid_request_error', errorMessage: `prompt is too long: ${promptTokens} tokens > ${limitTokens} maximum` };
  }
  return {
    status: 400,
    errorType: 'invalid_request_error',
    errorCode: 'context_length_exceeded',
    errorMessage: `This model's maximum context length is ${limitTokens} tokens. However, your messages resulted in ${promptTokens} tokens. Please reduce the length of the messages.`,
  };
}
