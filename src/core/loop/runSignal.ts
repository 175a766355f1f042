// The abort signal a run (or a user's cell) hands to everything under it: aborted with a
// RunCancelledError when the caller's signal aborts, whether before or after it starts.
import { setMaxListeners } from 'node:events';
import { RunCancelledError } from './loopErrors';

export function runController(outer: AbortSignal | undefined): { controller: AbortController; release: () => void } {
  const controller = new AbortController();
  // Every sub-call and child run listens to this signal.
  setMaxListeners(0, controller.signal);
  const onAbort = (): void => controller.abort(new RunCancelledError());
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  return { controller, release: () => outer?.removeEventListener('abort', onAbort) };
}
