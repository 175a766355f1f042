import type { ErrorKind } from '../errorKind';
// Typed errors of the REPL engine. They carry data; user-facing wording happens at the edges. An oversized
// `context` is the ContextTooLargeError of ../context/contextErrors, the same one reading paths throws.

/** The bound context is malformed (e.g. duplicate paths); fix the caller. */
export class InvalidContextError extends Error {
  override readonly name = 'InvalidContextError';
  readonly errorKind: ErrorKind = 'invalid_context';
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
  readonly errorKind: ErrorKind = 'repl';
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
  readonly errorKind: ErrorKind = 'repl';
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
  readonly errorKind: ErrorKind = 'repl';
  constructor(readonly operation: string) {
    super(`the REPL session is closed (${operation})`);
  }
}

/** The REPL process died outside a cell and could not be brought back. */
export class ReplCrashedError extends Error {
  override readonly name = 'ReplCrashedError';
  readonly errorKind: ErrorKind = 'repl';
  constructor(
    readonly reason: 'hard-timeout' | 'crash' | 'out-of-memory',
    readonly detail: string,
  ) {
    super(`the REPL process was lost (${reason}): ${detail}`);
  }
}

/**
 * The REPL's sandbox did not hold at start: layer 1 (Python reaches no JS) or the blocking part of layer 2
 * (no network or process module, no stack-trace API) failed its probes. No run may use this REPL.
 */
export class SandboxError extends Error {
  override readonly name = 'SandboxError';
  readonly errorKind: ErrorKind = 'sandbox';
  constructor(readonly failures: string[]) {
    super(`the REPL sandbox did not hold, so no model-written code will run: ${failures.join('; ')}`);
  }
}

/** A request outside a cell (binding `context`) got no answer in time; the process was killed. */
export class ReplHungError extends Error {
  override readonly name = 'ReplHungError';
  readonly errorKind: ErrorKind = 'repl';
  constructor(
    readonly operation: 'bind',
    readonly limitMs: number,
  ) {
    super(`the REPL did not finish ${operation === 'bind' ? 'binding context' : operation} within ${limitMs} ms and was stopped`);
  }
}

/**
 * The REPL process sent the host something outside the protocol (a malformed, oversized or out-of-turn
 * message, or bytes on a stream that carries none). The legitimate worker never does: the process was
 * killed, and the run ends with this error rather than continuing on a fresh one, because the model's
 * code has shown it can reach past the Python sandbox. `stream` says where; `detail` what.
 */
export class SandboxViolationError extends Error {
  override readonly name = 'SandboxViolationError';
  readonly errorKind: ErrorKind = 'sandbox_violation';
  constructor(
    readonly stream: string,
    readonly detail: string,
  ) {
    super(`the REPL process broke the host's protocol on its ${stream} (${detail}); it was stopped and the run ended, since the model-written code may have tried to get out of the sandbox`);
  }
}
