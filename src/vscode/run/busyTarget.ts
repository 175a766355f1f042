// A question about a target that is already running is not refused: the person chooses to queue it
// behind the running one or to stop that one, and the typed question is kept either way. When the
// running question ends while the choice is still open, the choice goes away and the question goes
// ahead. No `vscode` here: the choosing is passed in (busyPrompt.ts shows it).
import type { RunRegistry } from './runRegistry';

export type BusyAnswer = 'queue' | 'stop' | undefined;

/** Resolves true once nothing runs or is starting on `contextKey`; false when `signal` aborts first. */
export function whenFree(registry: RunRegistry, contextKey: string, signal?: AbortSignal): Promise<boolean> {
  if (!registry.isBusy(contextKey)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const finish = (free: boolean): void => {
      unsubscribe();
      signal?.removeEventListener('abort', onAbort);
      resolve(free);
    };
    const onAbort = (): void => finish(false);
    const unsubscribe = registry.onDidChange(() => {
      if (!registry.isBusy(contextKey)) finish(true);
    });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

interface WaitForTurnOptions {
  registry: RunRegistry;
  contextKey: string;
  /** Asks the person; `freed` aborts when the target frees up meanwhile (hide the question then). */
  choose: (runningQuestion: string, freed: AbortSignal) => Promise<BusyAnswer>;
  /** Called once the question waits behind the running one (queued, or stopping it). */
  onWaiting?: (answer: 'queue' | 'stop') => void;
  /** Aborting gives up waiting (the person cancelled the queued question). */
  signal?: AbortSignal;
}

/** True when the question may start now; false when the person declined or gave up waiting. */
export async function waitForTurn(options: WaitForTurnOptions): Promise<boolean> {
  const { registry, contextKey } = options;
  if (!registry.isBusy(contextKey)) return true;
  // A run whose answer is out is only recording its coverage: nothing to choose, the question just
  // starts when that ends.
  if (registry.get(contextKey)?.answerShown) return whenFree(registry, contextKey, options.signal);
  const runningQuestion = registry.get(contextKey)?.question ?? 'another question';
  const freed = new AbortController();
  const watching = new AbortController();
  void whenFree(registry, contextKey, watching.signal).then((free) => {
    if (free) freed.abort();
  });
  let answer: BusyAnswer;
  try {
    answer = await options.choose(runningQuestion, freed.signal);
  } finally {
    watching.abort();
  }
  if (freed.signal.aborted) return true;
  if (answer === undefined) return false;
  if (answer === 'stop') registry.get(contextKey)?.stop();
  options.onWaiting?.(answer);
  return whenFree(registry, contextKey, options.signal);
}
