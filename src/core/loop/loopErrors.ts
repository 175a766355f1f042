// Typed errors of the RLM loop. They carry data; the CLI and the VS Code adapter turn them into text.
import type { LimitKind } from '../trajectory/events';

export class LoopError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A configured limit was reached. `spent` and `limit` are in the limit's own unit (see `unit`). */
export class BudgetExceededError extends LoopError {
  constructor(
    readonly limitKind: LimitKind,
    readonly spent: number,
    readonly limit: number,
  ) {
    super(`${describeLimit(limitKind)} limit reached: ${formatAmount(limitKind, spent)} of ${formatAmount(limitKind, limit)}`);
  }
}

/** The caller's AbortSignal fired. */
export class RunCancelledError extends LoopError {
  constructor(readonly detail = 'cancelled by the user') {
    super(`Run cancelled: ${detail}`);
  }
}

/** A limit or option value that cannot work, e.g. a negative iteration count. */
export class InvalidLimitError extends LoopError {
  constructor(
    readonly option: string,
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`Invalid ${option}: ${String(value)} (expected ${expected})`);
  }
}

/** A sub-call prompt the sub model cannot take; refused before anything is sent. */
export class PromptTooLargeError extends LoopError {
  constructor(
    readonly estimatedTokens: number,
    readonly windowTokens: number,
    readonly model: string,
  ) {
    super(
      `prompt of ~${estimatedTokens} tokens (plus the reply) does not fit ${model}'s ${windowTokens}-token context; ` +
        `split it into smaller slices`,
    );
  }
}

/** The run-wide cap on sub-calls was reached; further sub-calls are refused. */
export class SubCallLimitError extends LoopError {
  constructor(readonly limit: number) {
    super(`the run-wide limit of ${limit} sub-calls was reached; no more sub-calls are possible in this run`);
  }
}

/** A single sub-call exceeded its own timeout. */
export class SubCallTimeoutError extends LoopError {
  constructor(readonly timeoutMs: number) {
    super(`sub-call timed out after ${Math.round(timeoutMs / 1000)} s`);
  }
}

function describeLimit(kind: LimitKind): string {
  switch (kind) {
    case 'iterations':
      return 'Iteration';
    case 'depth':
      return 'Recursion depth';
    case 'subCalls':
      return 'Sub-call';
    case 'totalTokens':
      return 'Token';
    case 'costUsd':
      return 'Cost';
    case 'wallTime':
      return 'Wall-time';
    case 'consecutiveErrors':
      return 'Consecutive error turn';
  }
}

function formatAmount(kind: LimitKind, value: number): string {
  if (kind === 'costUsd') return `$${value.toFixed(4)}`;
  if (kind === 'wallTime') return `${(value / 1000).toFixed(1)} s`;
  return String(value);
}

/** A short kind name for an unknown thrown value, used in events and `[ERROR]` strings. */
export function errorKind(error: unknown): string {
  if (error instanceof Error) return error.name && error.name !== 'Error' ? error.name : error.constructor.name;
  return 'Error';
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
