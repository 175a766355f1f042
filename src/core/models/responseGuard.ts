// Bounds what a model server can make a call wait for and read. Both SDKs get this wrapped fetch:
// a response that sends no bytes for the stall limit, or grows past the size limit, fails with a
// ResponseGuardTrip, which sdkErrorMapping turns into ModelStallError / ModelResponseTooLargeError.
// The SDKs' own timeout ends when the headers arrive, so before this a server that streamed
// forever, or sent one endless line, held `rlm ask` for as long as it liked, at full CPU.
// Per chunk the guard only counts its length and re-arms one timer; event streams are also passed
// on in whole events (eventStreamAligner.ts) so the SDKs' parsers stay linear.
// The server chooses the content type, the request does not: a streamed request's body is parsed as
// server-sent events by the SDK whatever the server calls it, so the alignment follows the request.
// A server that answered a streamed call with a 100 MB `application/json` body with no newline once
// held the CLI at full CPU for minutes below the cap (the SDK rescanned its growing line per chunk).
// Every call also has an overall deadline: a server that sends a byte just inside the stall limit
// forever is never silent, and might stay under the size cap for hours.
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
/**
 * 10 minutes from sending the request to the response's last byte: the SDKs' own per-request timeout,
 * which ends when the headers arrive, extended over the body. A 128k-token answer at a slow 100
 * tokens/s streams for about 21 minutes, so such a run raises it; a default sub-call (4,096 tokens)
 * takes under a minute.
 */
export const DEFAULT_RESPONSE_TIMEOUT_MS = 600_000;

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
  /** The longest the whole response may take, from the request to its last byte, silent or not. */
  responseTimeoutMs: number;
  /**
   * Whether the SDK will parse the body as server-sent events (a streamed request), whatever its
   * content type says. Event-stream bodies are aligned in any case.
   */
  eventStream: boolean;
}

type GuardReason = 'stall' | 'too_large' | 'deadline';
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
    /** The limit met: milliseconds of silence, bytes, or milliseconds in all (deadline). */
    readonly limit: number,
    /** Body bytes received when it was met. */
    readonly receivedBytes: number,
  ) {
    super(reason === 'stall' ? `no bytes for ${limit} ms (${phase})` : reason === 'deadline' ? `not complete after ${limit} ms (${phase})` : `the body passed ${limit} bytes`);
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
    const clock = new CallClock(limits);
    let response: Response;
    try {
      const sent = inner.call(undefined, input, { ...init, signal: controller.signal });
      response = await clock.race(sent, 'headers', limits.guardHeaderWait, () => 0, (error) => trip(controller, error));
    } catch (error) {
      release();
      throw error;
    }
    if (!response.body || NULL_BODY_STATUS.has(response.status)) {
      release();
      return response;
    }
    const eventStream = limits.eventStream || /text\/event-stream/i.test(response.headers.get('content-type') ?? '');
    const body = guardBody(response.body, limits, clock, eventStream ? new EventStreamAligner() : undefined, controller, release);
    const init2 = { status: response.status, statusText: response.statusText, headers: response.headers };
    // The SDKs read an error's body themselves and turn a failed read into the error's text, so a
    // trip there would surface as a plain HTTP error. Read it here (within the same limits) and let
    // a trip fail the fetch itself, where sdkErrorMapping finds it as the cause.
    const guarded = response.ok ? new Response(body, init2) : new Response(await new Response(body).arrayBuffer(), init2);
    Object.defineProperty(guarded, 'url', { value: response.url });
    return guarded;
  };
}

function trip(controller: AbortController, error: ResponseGuardTrip): ResponseGuardTrip {
  controller.abort(error);
  return error;
}

/** One call's two time limits: silence (re-armed per read) and the overall deadline (fixed at the start). */
class CallClock {
  readonly #deadline: number;
  constructor(private readonly limits: ResponseGuardLimits) {
    this.#deadline = Date.now() + limits.responseTimeoutMs;
  }

  /** `promise`, or the trip of whichever limit comes first (silence only when `silenceCounts`). */
  race<T>(promise: Promise<T>, phase: GuardPhase, silenceCounts: boolean, received: () => number, fail: (error: ResponseGuardTrip) => Error): Promise<T> {
    const left = Math.max(0, this.#deadline - Date.now());
    const stall = silenceCounts && this.limits.stallTimeoutMs < left;
    return within(promise, stall ? this.limits.stallTimeoutMs : left, () =>
      fail(stall ? new ResponseGuardTrip('stall', phase, this.limits.stallTimeoutMs, received()) : new ResponseGuardTrip('deadline', phase, this.limits.responseTimeoutMs, received())),
    );
  }
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
  clock: CallClock,
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
            const next = await clock.race(reader.read(), 'body', true, () => received, fail);
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
