// Default limits and their validation, and the config record written at the start of a run.
import type { ModelClient } from '../models/modelTypes';
import type { ModelRef, RunConfigRecord } from '../trajectory/events';
import type { RunLimits } from './loopTypes';
import { InvalidLimitError } from './loopErrors';

export const DEFAULT_LIMITS: Readonly<RunLimits> = Object.freeze({
  maxIterations: 30,
  maxDepth: 1,
  maxSubCalls: 500,
  maxConsecutiveErrors: 5,
  cellTimeoutMs: 60_000,
  subCallTimeoutMs: 120_000,
  subCallMaxTokens: 4096,
  subCallConcurrency: 16,
  observationMaxChars: 4000,
  outputCaptureMaxChars: 200_000,
});

/**
 * Child RLM runs in one rlm_query_batched call that run at once. Each needs its own REPL process
 * (~150 MB before its context, and a CPU-heavy Pyodide start), so a batch of 16 would start 16 of
 * them together; plain llm_query batches keep subCallConcurrency.
 */
export const CHILD_RUN_CONCURRENCY = 4;

const INTEGER_MIN: Array<[keyof RunLimits, number]> = [
  ['maxIterations', 1],
  ['maxDepth', 0],
  ['maxSubCalls', 0],
  ['maxConsecutiveErrors', 1],
  ['subCallMaxTokens', 1],
  ['subCallConcurrency', 1],
  ['observationMaxChars', 200],
  ['outputCaptureMaxChars', 1],
];

/** Fills in defaults and refuses values that cannot work, naming the option. */
export function resolveLimits(partial: Partial<RunLimits> | undefined): RunLimits {
  const limits: RunLimits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(partial ?? {}) as Array<[keyof RunLimits, number | undefined]>) {
    if (value !== undefined) limits[key] = value;
  }
  for (const [key, min] of INTEGER_MIN) {
    const value = limits[key];
    if (value === undefined || !Number.isInteger(value) || value < min) {
      throw new InvalidLimitError(key, value, `an integer ≥ ${min}`);
    }
  }
  for (const key of ['cellTimeoutMs', 'subCallTimeoutMs'] as const) {
    if (!(limits[key] > 0)) throw new InvalidLimitError(key, limits[key], 'a positive number of milliseconds');
  }
  for (const key of ['maxTotalTokens', 'maxCostUsd', 'maxWallTimeMs'] as const) {
    const value = limits[key];
    if (value !== undefined && !(value > 0)) throw new InvalidLimitError(key, value, 'a positive number');
  }
  return limits;
}

export function modelRef(client: ModelClient): ModelRef {
  return { provider: client.provider, model: client.model, baseUrl: client.endpoint };
}

export function configRecord(limits: RunLimits, root: ModelClient, sub: ModelClient): RunConfigRecord {
  return {
    root: modelRef(root),
    sub: modelRef(sub),
    maxIterations: limits.maxIterations,
    maxDepth: limits.maxDepth,
    maxSubCalls: limits.maxSubCalls,
    maxTotalTokens: limits.maxTotalTokens,
    maxCostUsd: limits.maxCostUsd,
    maxWallTimeMs: limits.maxWallTimeMs,
    maxConsecutiveErrors: limits.maxConsecutiveErrors,
    cellTimeoutMs: limits.cellTimeoutMs,
    subCallTimeoutMs: limits.subCallTimeoutMs,
    subCallMaxTokens: limits.subCallMaxTokens,
    subCallConcurrency: limits.subCallConcurrency,
    observationMaxChars: limits.observationMaxChars,
    outputCaptureMaxChars: limits.outputCaptureMaxChars,
  };
}
