import { setMaxListeners } from 'node:events';

// Runs async work over a list with at most `limit` items in flight, keeping input order. Items not
// yet started when the signal fires are not started at all: they get `onSkipped`'s value.

export async function boundedMap<T, R>(
  items: readonly T[],
  limit: number,
  signal: AbortSignal,
  work: (item: T, index: number) => Promise<R>,
  onSkipped: (item: T, index: number) => R,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  async function lane(): Promise<void> {
    while (next < items.length) {
      const index = next++;
      const item = items[index] as T;
      results[index] = signal.aborted ? onSkipped(item, index) : await work(item, index);
    }
  }
  const lanes = Array.from({ length: Math.min(Math.max(1, limit), items.length) }, () => lane());
  await Promise.all(lanes);
  return results;
}

/**
 * A signal that fires when any input fires, or after `timeoutMs` with the reason `timeoutReason()`
 * builds. The reason is built only when the timer fires: an error captures a stack trace, and a
 * fan-out links one signal per sub-call, nearly all of which end long before their timeout.
 */
export function linkSignals(signals: AbortSignal[], timeoutMs?: number, timeoutReason?: () => unknown): { signal: AbortSignal; dispose: () => void } {
  const controller = new AbortController();
  // A batch links every in-flight item to the same run signal: many listeners are expected here.
  setMaxListeners(0, controller.signal);
  const cleanups: Array<() => void> = [];
  for (const input of signals) {
    if (input.aborted) {
      controller.abort(input.reason);
      break;
    }
    const onAbort = (): void => controller.abort(input.reason);
    input.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => input.removeEventListener('abort', onAbort));
  }
  if (timeoutMs !== undefined && !controller.signal.aborted) {
    const timer = setTimeout(() => controller.abort(timeoutReason?.()), timeoutMs);
    cleanups.push(() => clearTimeout(timer));
  }
  return {
    signal: controller.signal,
    dispose: () => {
      for (const cleanup of cleanups) cleanup();
    },
  };
}

/**
 * Waits for `work`, but gives up as soon as `signal` fires (throwing its reason). What `work`
 * produces after that is handed to `onLate`, so nothing acquired is leaked.
 */
export function raceAbort<T>(work: Promise<T>, signal: AbortSignal, onLate: (value: T) => unknown): Promise<T> {
  if (signal.aborted) {
    work.then(onLate, () => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const onAbort = (): void => {
      settled = true;
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        if (settled) onLate(value);
        else resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        if (!settled) reject(error);
      },
    );
  });
}
