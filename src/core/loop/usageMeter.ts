// Usage accounting for a run tree. Each run has a meter; usage added to a child's meter also counts
// for every ancestor, so a root meter always holds the whole tree's totals and the budget can be
// checked against it.
import type { TokenUsage } from '../models/modelTypes';
import type { UsageTotals } from '../trajectory/events';

export class UsageMeter {
  inputTokens = 0;
  outputTokens = 0;
  knownCostUsd = 0;
  costUnknown = false;
  cacheReadTokens = 0;
  cacheWriteTokens = 0;
  savedUsd = 0;
  cachedSubCalls = 0;
  subCalls = 0;
  /** Root turns of this run only (child turns are their own runs' iterations). */
  iterations = 0;

  constructor(
    private readonly startedAt: number,
    private readonly parent?: UsageMeter,
  ) {}

  addUsage(usage: TokenUsage): void {
    for (const meter of this.lineage()) {
      meter.inputTokens += usage.inputTokens;
      meter.outputTokens += usage.outputTokens;
      if (usage.costUsd === null) meter.costUnknown = true;
      else meter.knownCostUsd += usage.costUsd;
      meter.cacheReadTokens += usage.cacheReadTokens ?? 0;
      meter.cacheWriteTokens += usage.cacheWriteTokens ?? 0;
      meter.savedUsd += usage.savedUsd ?? 0;
      if (usage.fromCache) meter.cachedSubCalls += 1;
    }
  }

  addSubCall(): void {
    for (const meter of this.lineage()) meter.subCalls += 1;
  }

  /** This meter and its ancestors, up to the root run's. */
  private lineage(): UsageMeter[] {
    const out: UsageMeter[] = [];
    for (let meter: UsageMeter | undefined = this as UsageMeter; meter; meter = meter.parent) out.push(meter);
    return out;
  }

  get totalTokens(): number {
    return this.inputTokens + this.outputTokens;
  }

  totals(now: number): UsageTotals {
    return {
      inputTokens: this.inputTokens,
      outputTokens: this.outputTokens,
      costUsd: this.costUnknown ? null : roundUsd(this.knownCostUsd),
      costUnknown: this.costUnknown,
      subCalls: this.subCalls,
      iterations: this.iterations,
      wallTimeMs: Math.max(0, now - this.startedAt),
      ...(this.cacheReadTokens ? { cacheReadTokens: this.cacheReadTokens } : {}),
      ...(this.cacheWriteTokens ? { cacheWriteTokens: this.cacheWriteTokens } : {}),
      ...(this.savedUsd ? { savedUsd: roundUsd(this.savedUsd) } : {}),
      ...(this.cachedSubCalls ? { cachedSubCalls: this.cachedSubCalls } : {}),
    };
  }
}

/** Keeps float noise out of recorded totals. */
function roundUsd(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}

export const ZERO_USAGE: TokenUsage = Object.freeze({ inputTokens: 0, outputTokens: 0, costUsd: 0 });
