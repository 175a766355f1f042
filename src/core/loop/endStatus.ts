// How a run ends: the status, typed error and answer that go into run.finished and the RunResult.
import type { SandboxProtections } from '../repl/replTypes';
import { emptyProtections } from '../repl/sandboxProtections';
import type { RunError, RunStatus } from '../trajectory/events';
import { BudgetExceededError, errorKind, errorMessage, RunCancelledError } from './loopErrors';

export interface Outcome {
  status: RunStatus;
  error?: RunError;
}

/** Maps whatever stopped the run to its status; an aborted signal's reason wins over the SDK's abort error. */
export function outcomeOf(error: unknown, signal: AbortSignal): Outcome {
  const cause = signal.aborted ? signal.reason : error;
  if (cause instanceof BudgetExceededError) {
    return { status: 'limit', error: { kind: 'limit', message: cause.message, limit: cause.limitKind } };
  }
  if (cause instanceof RunCancelledError) return { status: 'cancelled', error: { kind: 'cancelled', message: cause.message } };
  if (signal.aborted) {
    // Stopped by something other than the user (a parent cell's timeout, a REPL that died): say what.
    return { status: 'cancelled', error: { kind: errorKind(cause), message: errorMessage(cause) } };
  }
  return { status: 'error', error: { kind: errorKind(cause), message: errorMessage(cause) } };
}

export const NO_PROTECTIONS: SandboxProtections = emptyProtections('The REPL did not start, so no model-written code ran and no layer was probed.');
