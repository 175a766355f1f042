// Typed errors of the REPL engine. They carry data; user-facing wording happens at the edges. An oversized
// `context` is the ContextTooLargeError of ../context/contextErrors, the same one reading paths throws.

/** The bound context is malformed (e.g. duplicate paths); fix the caller. */
export class InvalidContextError extends Error {
  override readonly name = 'InvalidContextError';
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

/** The REPL process could not be started. `stderr` holds the tail of what the child printed. */
export class ReplStartError extends Error {
  override readonly name = 'ReplStartError';
  constructor(
    message: string,
    readonly stderr: string,
    readonly exitCode: number | null,
    /** The child was alive but never said it was ready within the start timeout. */
    readonly timedOut = false,
  ) {
    super(stderr ? `${message}\n${stderr}` : message);
  }
}

/** Python could not decode `context` (e.g. out of memory); `pythonError` names the exception. */
export class ContextBindError extends Error {
  override readonly name = 'ContextBindError';
  constructor(
    message: string,
    readonly pythonError: string,
    readonly bytes: number,
  ) {
    super(message);
  }
}

/** The session was used after close(). */
export class ReplClosedError extends Error {
  override readonly name = 'ReplClosedError';
  constructor(readonly operation: string) {
    super(`the REPL session is closed (${operation})`);
  }
}

/** The REPL process died outside a cell and could not be brought back. */
export class ReplCrashedError extends Error {
  override readonly name = 'ReplCrashedError';
  constructor(
    readonly reason: 'hard-timeout' | 'crash' | 'out-of-memory',
    readonly detail: string,
  ) {
    super(`the REPL process was lost (${reason}): ${detail}`);
  }
}

/** Clearing the namespace between runs failed or hung; the session must not be handed to another run. */
export class ReplResetError extends Error {
  override readonly name = 'ReplResetError';
  constructor(
    readonly reason: 'python-error' | 'timeout',
    readonly detail: string,
  ) {
    super(`resetting the REPL namespace failed (${reason}): ${detail}`);
  }
}
