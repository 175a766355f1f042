// Bounds what a model server can make a call wait for and read. Both SDKs get this wrapped fetch:
// a response that sends no bytes for the stall limit, or grows past the size limit, fails with a
// ResponseGuardTrip, which sdkErrorMapping turns into ModelStallError / ModelResponseTooLargeError.
// The SDKs' own timeout ends when the headers arrive, so before this a server that streamed
// forever, or sent one endless line, held `rlm ask` for as long as it liked, at full CPU.
// Per chunk the guard only counts its length and re-arms one timer; event streams are also passed
// on in whole events (eventStreamAligner.ts) so the SDKs' parsers stay linear.
import { EventStreamAligner } from './eventStreamAligner';

export const DEFAULT_STALL_TIMEOUT_MS = 60_000;
/**
 * 64 MiB, far above any real answer. The longest replies current models give are about 128k tokens;
 * streamed, each token is one SSE event of roughly 280 bytes (OpenAI's chunk JSON), about 36 MB in
 * all, and a non-streamed JSON body of the same answer is under 2 MB. A default sub-call (4,096
 * tokens) streams about 1 MB. So only a broken or hostile server meets the cap, while it still
 * bounds memory (the body is held while parsed) and parse time (well under a second).
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

interface ResponseGuardLimits {
  stallTimeoutMs: number;
  maxResponseBytes: number;
  /**
   * Whether the wait for the response headers counts as silence. True for streamed requests, whose
   * servers send headers at once. A plain request's headers come only when the whole answer is
   * ready, which can take minutes for a long or reasoning answer; that wait is bounded by the SDK's
   * per-request timeout and the caller's signal instead.
   */
  guardHeaderWait: boolean;
}

type GuardReason = 'stall' | 'too_large';
type GuardPhase = 'headers' | 'body';

/**
 * Raised inside the fetch when a limit is met. Its name and message must not look like a timeout or
 * an abort: the SDKs turn a failed fetch whose text matches /timed? ?out/ into their own
 * APIConnectionTimeoutError without a cause, and end a stream quietly on an AbortError.
 */
export class ResponseGuardTrip extends Error {
  constructor(
    readonly reason: GuardReason,
    readonly phase: GuardPhase,
    /** The limit met: milliseconds of silence, or bytes. */
    readonly limit: number,
    /** Body bytes received when it was met. */
    readonly receivedBytes: number,
  ) {
    super(reason === 'stall' ? `no bytes for ${limit} ms (${phase})` : `the body passed ${limit} bytes`);
    this.name = 'ResponseGuardTrip';
  }
}

/** Statuses whose Response may not have a body (the Response constructor refuses one). */
const NULL_BODY_STATUS = new Set([101, 103, 204, 205, 304]);

export function guardFetch(inner: typeof fetch, limits: ResponseGuardLimits): typeof fetch {
  return async (input, init) => {
    // Our own controller, following the SDK's, so a trip can close the connection itself.
    const controller = new AbortController();
    const outer = init?.signal ?? undefined;
    const forward = (): void => controller.abort(outer?.reason);
    if (outer?.aborted) forward();
    else outer?.addEventListener('abort', forward, { once: true });
    const release = (): void => outer?.removeEventListener('abort', forward);
    let response: Response;
    try {
      const sent = inner.call(undefined, input, { ...init, signal: controller.signal });
      response = limits.guardHeaderWait
        ? await within(sent, limits.stallTimeoutMs, () => trip(controller, new ResponseGuardTrip('stall', 'headers', limits.stallTimeoutMs, 0)))
        : await sent;
    } catch (error) {
      release();
      throw error;
    }
    if (!response.body || NULL_BODY_STATUS.has(response.status)) {
      release();
      return response;
    }
    const eventStream = /text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const body = guardBody(response.body, limits, eventStream ? new EventStreamAligner() : undefined, controller, release);
    const guarded = new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
    Object.defineProperty(guarded, 'url', { value: response.url });
    return guarded;
  };
}

function trip(controller: AbortController, error: ResponseGuardTrip): ResponseGuardTrip {
  controller.abort(error);
  return error;
}

/** Settles as `promise` does, or rejects with onStall() when it has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number, onStall: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onStall()), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The body, read only as the SDK pulls it (so its own slowness never counts as the server's). */
function guardBody(
  source: ReadableStream<Uint8Array>,
  limits: ResponseGuardLimits,
  aligner: EventStreamAligner | undefined,
  controller: AbortController,
  release: () => void,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let received = 0;
  let cancelled = false;
  const fail = (error: ResponseGuardTrip): ResponseGuardTrip => {
    trip(controller, error);
    reader.cancel(error).catch(() => undefined);
    release();
    return error;
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(out) {
        try {
          for (;;) {
            const next = await within(reader.read(), limits.stallTimeoutMs, () => fail(new ResponseGuardTrip('stall', 'body', limits.stallTimeoutMs, received)));
            // The SDK let go of the body while this read was pending: nothing more to pass on.
            if (cancelled) return;
            if (next.done) {
              const rest = aligner?.flush();
              if (rest) out.enqueue(rest);
              out.close();
              release();
              return;
            }
            received += next.value.byteLength;
            if (received > limits.maxResponseBytes) throw fail(new ResponseGuardTrip('too_large', 'body', limits.maxResponseBytes, received));
            const ready = aligner ? aligner.push(next.value) : next.value;
            if (ready) {
              out.enqueue(ready);
              return;
            }
          }
        } catch (error) {
          release();
          throw error;
        }
      },
      cancel(reason) {
        cancelled = true;
        release();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
