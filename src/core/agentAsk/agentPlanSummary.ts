// What a run an agent asked for will read and may spend, said before it starts: VS Code's confirmation
// shows it, `rlm mcp` sends it as the first progress message. Paths and sizes only, never contents.
import type { ContextPlan } from '../context/contextTypes';
import type { RunLimits } from '../loop/loopTypes';
import { priceStatus } from '../models/pricing';
import type { UserPriceTable } from '../models/pricing';
import { formatBytes, formatDuration, plural } from '../../shared/text/format';

interface AgentPlanSummary {
  fileCount: number;
  totalBytes: number;
  /** Read when used (a folder over the eager limit) rather than bound whole. */
  lazy: boolean;
  /** The paths as named (after globs were expanded, the files), the first few. */
  paths: string[];
  morePaths: number;
  skipped: number;
  maxCostUsd?: number;
  maxWallTimeMs?: number;
  cost?: AgentCostBasis;
}

/**
 * Whether the cost limit can stop the run, decided from its models before it starts: the limit counts
 * only known prices, so with a model whose price is unknown it would never stop the run, and the
 * confirmation must not promise it will. `free`: nothing is charged per token (why, in a few words).
 */
export type AgentCostBasis = { kind: 'priced' } | { kind: 'free'; why: string } | { kind: 'unpriced'; models: string[]; /** What the user can do, for this surface. */ remedy: string };

/** The basis of a run on these models (provider "vscode" and "mcp" are on the user's plan); `remedy` for an unknown price. */
export function costBasisOf(models: ReadonlyArray<{ provider: string; model: string; baseUrl?: string; pricing?: unknown }>, remedy: string, prices?: UserPriceTable): AgentCostBasis {
  const statuses = models.map((m) => ({ model: m.model, status: m.provider === 'vscode' || m.provider === 'mcp' ? 'plan' : m.pricing ? 'priced' : priceStatus(m.model, m.baseUrl, prices) }));
  const unpriced = [...new Set(statuses.filter((s) => s.status === 'unknown').map((s) => s.model))];
  if (unpriced.length) return { kind: 'unpriced', models: unpriced, remedy };
  if (statuses.every((s) => s.status === 'plan')) return { kind: 'free', why: 'included in your plan' };
  if (statuses.every((s) => s.status === 'local')) return { kind: 'free', why: 'a local model' };
  return { kind: 'priced' };
}

const SHOWN_PATHS = 5;

export function summarizeAgentPlan(plan: ContextPlan, limits: Partial<RunLimits>, cost?: AgentCostBasis): AgentPlanSummary {
  const paths = plan.target.paths;
  return {
    fileCount: plan.target.fileCount,
    totalBytes: plan.totalBytes,
    lazy: plan.lazy !== undefined,
    paths: paths.slice(0, SHOWN_PATHS),
    morePaths: Math.max(0, paths.length - SHOWN_PATHS),
    skipped: plan.target.skipped.length,
    ...(limits.maxCostUsd !== undefined ? { maxCostUsd: limits.maxCostUsd } : {}),
    ...(limits.maxWallTimeMs !== undefined ? { maxWallTimeMs: limits.maxWallTimeMs } : {}),
    ...(cost ? { cost } : {}),
  };
}

/** "Reads 12 files (340 KB) from src, bound whole. Stops at $0.50 or 5m 0s." */
export function describeAgentPlan(summary: AgentPlanSummary): string {
  const where = summary.paths.map((p) => (p === '.' ? 'the whole folder' : p)).join(', ') + (summary.morePaths ? ` and ${summary.morePaths} more` : '');
  const how = summary.lazy ? 'read lazily (files are read only when the run uses them)' : 'bound whole into the sandbox';
  const skipped = summary.skipped ? `; ${plural(summary.skipped, 'file')} left out (ignored, binary or too large)` : '';
  return `Reads ${plural(summary.fileCount, 'file')} (${formatBytes(summary.totalBytes)}) from ${where}, ${how}${skipped}.${describeStops(summary)}`;
}

/** "Reads the 40 selected lines of src/x.ts (lines 40-79): 1.3 KB, bound at their own line numbers … Stops at …" */
export function describeAgentSelection(selection: string, selectedBytes: number, limits: Partial<RunLimits>, cost?: AgentCostBasis): string {
  return `Reads ${selection}: ${formatBytes(selectedBytes)}, bound at their own line numbers so references point into the file.${describeStops({ ...limits, ...(cost ? { cost } : {}) })}`;
}

/**
 * " Stops at $0.50 or 5 min 0 s, whichever comes first." (with a leading space), or nothing without
 * limits. The cost limit is named only where it can act: not for a run charged nothing per token, and
 * said to be blind where a model's price is unknown.
 */
function describeStops(limits: Pick<Partial<RunLimits>, 'maxCostUsd' | 'maxWallTimeMs'> & { cost?: AgentCostBasis }): string {
  const basis = limits.cost ?? { kind: 'priced' };
  const time = limits.maxWallTimeMs !== undefined ? formatDuration(limits.maxWallTimeMs) : undefined;
  const dollars = limits.maxCostUsd !== undefined ? `$${limits.maxCostUsd.toFixed(2)}` : undefined;
  if (basis.kind === 'free') return ` No per-token charge (${basis.why}).${time ? ` Stops at ${time}.` : ''}`;
  if (basis.kind === 'unpriced') {
    const which = basis.models.join(' and ');
    return `${time ? ` Stops at ${time}.` : ''} The price of ${which} is unknown, so its cost is not counted${dollars ? ` and the ${dollars} cost limit cannot stop the run` : ''}: ${basis.remedy}.`;
  }
  const stops = [dollars, time].filter(Boolean);
  return stops.length ? ` Stops at ${stops.join(' or ')}, whichever comes first.` : '';
}
