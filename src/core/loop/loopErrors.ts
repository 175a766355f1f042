// Typed errors of the RLM loop. They carry data; the CLI and the VS Code adapter turn them into text.
import { errorKindOf } from '../errorKind';
import type { ErrorKind, KindedError } from '../errorKind';
import type { LimitKind } from '../trajectory/events';

export class LoopError extends Error implements KindedError {
  readonly errorKind: ErrorKind = 'internal';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A configured limit was reached. `spent` and `limit` are in the limit's own unit (see `unit`). */
export class BudgetExceededError extends LoopError {
  override readonly errorKind = 'limit';
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
  override readonly errorKind = 'cancelled';
  constructor(readonly detail = 'cancelled by the user') {
    super(`Run cancelled: ${detail}`);
  }
}

/** A limit or option value that cannot work, e.g. a negative iteration count. */
export class InvalidLimitError extends LoopError {
  override readonly errorKind = 'config';
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
  override readonly errorKind = 'prompt_too_large';
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
  override readonly errorKind = 'limit';
  constructor(readonly limit: number) {
    super(`the run's sub-call budget (${limit}) is spent; no more sub-calls will be made in this run, so answer from what you have`);
  }
}

/** A large batch whose estimated cost would pass the run's cost limit: refused before anything was sent. */
export class BatchCostLimitError extends LoopError {
  override readonly errorKind = 'limit';
  constructor(
    readonly prompts: number,
    readonly estimatedUsd: number,
    readonly spentUsd: number,
    readonly maxUsd: number,
  ) {
    super(
      `this batch of ${prompts} prompts would cost about $${estimatedUsd.toFixed(4)}, and the run has spent $${spentUsd.toFixed(4)} of its $${maxUsd.toFixed(4)} limit; ` +
        'nothing was sent: use fewer or shorter prompts (sample, or summarise first)',
    );
  }
}

/** An empty or whitespace-only prompt: refused before anything is sent (it would be billed for nothing). */
export class EmptyPromptError extends LoopError {
  override readonly errorKind = 'empty_prompt';
  constructor() {
    super('the prompt is empty; nothing was sent');
  }
}

/** A single sub-call exceeded its own timeout. */
export class SubCallTimeoutError extends LoopError {
  override readonly errorKind = 'timeout';
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

/** The stable kind of anything thrown, for events and `[ERROR] <kind>: ...` strings (src/core/errorKind.ts). */
export function errorKind(error: unknown): ErrorKind {
  return errorKindOf(error);
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
