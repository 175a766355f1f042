// The kind of a failure, as people and models read it: a stable word chosen in the source, never a
// class name (class names are minified in the packaged build, where "AuthError" becomes "Zh"). Every
// error the product raises declares one; docs/rlm-contract.md lists them, and a failed sub-call reads
// "[ERROR] <kind>: <message>".
export const ERROR_KINDS = [
  'connection',
  'rate_limit',
  'auth',
  'timeout',
  'context_too_long',
  'server',
  'bad_request',
  'bad_response',
  'config',
  'limit',
  'cancelled',
  'empty_prompt',
  'prompt_too_large',
  'context_too_large',
  'invalid_context',
  'repl',
  'sandbox',
  /** The REPL process broke the host's protocol (a malformed or out-of-turn message): it was killed and the run ended. */
  'sandbox_violation',
  'replay_diverged',
  /** A request of a provider batch (--batch) that the provider answered with an error. */
  'batch_errored',
  /** A request of a provider batch that did not run before the batch's 24-hour window closed. */
  'batch_expired',
  /** A request of a provider batch that was cancelled before it ran. */
  'batch_canceled',
  'internal',
] as const;

export type ErrorKind = (typeof ERROR_KINDS)[number];

/** What an error class declares. */
export interface KindedError {
  readonly errorKind: ErrorKind;
}

const KNOWN = new Set<string>(ERROR_KINDS);

/** Kinds older records carry: the class names written before the stable kinds. */
const FORMER_KINDS: Readonly<Record<string, ErrorKind>> = { BudgetExceededError: 'limit', RunCancelledError: 'cancelled' };

/**
 * A kind read from a record, as one of ours: a stable kind as is, a former class name as the kind it
 * became, and any other word (the Python reference's 'RateLimitError') as 'internal'.
 */
export function asErrorKind(recorded: string): ErrorKind {
  if (KNOWN.has(recorded)) return recorded as ErrorKind;
  return Object.hasOwn(FORMER_KINDS, recorded) ? FORMER_KINDS[recorded]! : 'internal';
}

/** The declared kind of anything thrown; 'cancelled' for an AbortError, 'internal' for the rest. */
export function errorKindOf(error: unknown): ErrorKind {
  const declared = (error as Partial<KindedError> | null)?.errorKind;
  if (typeof declared === 'string' && KNOWN.has(declared)) return declared;
  if (error instanceof Error && error.name === 'AbortError') return 'cancelled';
  return 'internal';
}
