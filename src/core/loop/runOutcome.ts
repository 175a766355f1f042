// How a run ends: the status, typed error and answer that go into run.finished and the RunResult.
import type { ContextMetadata, ContextSource } from '../context/contextTypes';
import type { SandboxProtections } from '../repl/replTypes';
import { emptyProtections } from '../repl/sandboxProtections';
import type { LimitKind, RunStatus } from '../trajectory/events';
import { BudgetExceededError, errorKind, errorMessage, RunCancelledError } from './loopErrors';

export interface Outcome {
  status: RunStatus;
  error?: { kind: string; message: string; limit?: LimitKind };
}

/** Maps whatever stopped the run to its status; an aborted signal's reason wins over the SDK's abort error. */
export function outcomeOf(error: unknown, signal: AbortSignal): Outcome {
  const cause = signal.aborted ? signal.reason : error;
  if (cause instanceof BudgetExceededError) {
    return { status: 'limit', error: { kind: 'BudgetExceededError', message: cause.message, limit: cause.limitKind } };
  }
  if (cause instanceof RunCancelledError) return { status: 'cancelled', error: { kind: 'RunCancelledError', message: cause.message } };
  if (signal.aborted) {
    // Stopped by something other than the user (a parent cell's timeout, a REPL that died): say what.
    return { status: 'cancelled', error: { kind: errorKind(cause), message: errorMessage(cause) } };
  }
  return { status: 'error', error: { kind: errorKind(cause), message: errorMessage(cause) } };
}

/** Metadata computed host-side, for a run.started record when the REPL could not bind the context. */
export function metadataWithoutRepl(source: ContextSource): ContextMetadata {
  const texts = source.kind === 'text' ? [{ path: source.label ?? 'text', content: source.text }] : source.files;
  const decoded = texts.map((t) => ({ path: t.path, text: typeof t.content === 'string' ? t.content : new TextDecoder().decode(t.content) }));
  const totalChars = decoded.reduce((n, t) => n + t.text.length, 0);
  const totalBytes = texts.reduce((n, t) => n + (typeof t.content === 'string' ? Buffer.byteLength(t.content) : t.content.byteLength), 0);
  return {
    type: source.kind === 'text' ? 'str' : 'dict',
    totalChars,
    totalBytes,
    fileCount: source.kind === 'text' ? 1 : source.files.length,
    prefix: (decoded[0]?.text ?? '').slice(0, 200),
    files: source.kind === 'text' ? [] : decoded.slice(0, 100).map((t) => ({ path: t.path, chars: t.text.length })),
    filesOmitted: source.kind === 'text' ? 0 : Math.max(0, decoded.length - 100),
    invalidUtf8Replacements: 0,
  };
}

export const NO_PROTECTIONS: SandboxProtections = emptyProtections('The REPL did not start, so no model-written code ran and no layer was probed.');
