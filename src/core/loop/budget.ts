// The run-wide budget shared by a root run and all its children: a child spends the parent's
// *remaining* budget simply by charging the same root meter. Checked before every turn.
import type { LimitKind } from '../trajectory/events';
import type { RunLimits } from './loopTypes';
import { BudgetExceededError } from './loopErrors';
import type { UsageMeter } from './usageMeter';

/** Share of a limit at which a limit.warning is emitted (once per limit). */
const WARNING_FRACTION = 0.8;

export interface LimitWarning {
  limit: LimitKind;
  value: number;
  max: number;
}

export class SharedBudget {
  /** Set when a sub-call was refused because of the cap; the run then ends with the 'subCalls' limit. */
  subCallCapHit = false;
  private readonly warned = new Set<LimitKind>();
  /** Sub-calls reserved (started or about to start), so concurrent items cannot overshoot the cap. */
  private reserved = 0;

  constructor(
    readonly limits: RunLimits,
    readonly rootMeter: UsageMeter,
    readonly startedAt: number,
    private readonly now: () => number,
  ) {}

  /** Takes one sub-call slot, or returns false (and remembers) when the cap is reached. */
  reserveSubCall(): boolean {
    if (this.reserved >= this.limits.maxSubCalls) {
      this.subCallCapHit = true;
      return false;
    }
    this.reserved += 1;
    return true;
  }

  /** The first exceeded limit, if any. Iterations, depth and error turns are per-run and checked by the run. */
  exceeded(): BudgetExceededError | undefined {
    const { maxTotalTokens, maxCostUsd, maxWallTimeMs, maxSubCalls } = this.limits;
    const meter = this.rootMeter;
    if (maxTotalTokens !== undefined && meter.totalTokens >= maxTotalTokens) {
      return new BudgetExceededError('totalTokens', meter.totalTokens, maxTotalTokens);
    }
    if (maxCostUsd !== undefined && meter.knownCostUsd >= maxCostUsd) {
      return new BudgetExceededError('costUsd', meter.knownCostUsd, maxCostUsd);
    }
    const elapsed = this.now() - this.startedAt;
    if (maxWallTimeMs !== undefined && elapsed >= maxWallTimeMs) {
      return new BudgetExceededError('wallTime', elapsed, maxWallTimeMs);
    }
    if (this.subCallCapHit) return new BudgetExceededError('subCalls', meter.subCalls, maxSubCalls);
    return undefined;
  }

  /** Limits that crossed the warning line since the last call. */
  newWarnings(): LimitWarning[] {
    const { maxTotalTokens, maxCostUsd, maxWallTimeMs, maxSubCalls } = this.limits;
    const candidates: Array<[LimitKind, number, number | undefined]> = [
      ['totalTokens', this.rootMeter.totalTokens, maxTotalTokens],
      ['costUsd', this.rootMeter.knownCostUsd, maxCostUsd],
      ['wallTime', this.now() - this.startedAt, maxWallTimeMs],
      ['subCalls', this.rootMeter.subCalls, maxSubCalls],
    ];
    const out: LimitWarning[] = [];
    for (const [limit, value, max] of candidates) {
      if (max === undefined || max <= 0 || this.warned.has(limit)) continue;
      if (value >= max * WARNING_FRACTION) {
        this.warned.add(limit);
        out.push({ limit, value, max });
      }
    }
    return out;
  }
}
