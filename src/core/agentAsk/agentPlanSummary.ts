// What a run an agent asked for will read and may spend, said before it starts: VS Code's confirmation
// shows it, `rlm mcp` sends it as the first progress message. Paths and sizes only, never contents.
import type { ContextPlan } from '../context/contextTypes';
import type { RunLimits } from '../loop/loopTypes';
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
}

const SHOWN_PATHS = 5;

export function summarizeAgentPlan(plan: ContextPlan, limits: Partial<RunLimits>): AgentPlanSummary {
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
  };
}

/** "Reads 12 files (340 KB) from src, bound whole. Stops at $0.50 or 5m 0s." */
export function describeAgentPlan(summary: AgentPlanSummary): string {
  const where = summary.paths.map((p) => (p === '.' ? 'the whole folder' : p)).join(', ') + (summary.morePaths ? ` and ${summary.morePaths} more` : '');
  const how = summary.lazy ? 'read lazily (files are read only when the run uses them)' : 'bound whole into the sandbox';
  const skipped = summary.skipped ? `; ${plural(summary.skipped, 'file')} left out (ignored, binary or too large)` : '';
  const stops = [summary.maxCostUsd !== undefined ? `$${summary.maxCostUsd.toFixed(2)}` : undefined, summary.maxWallTimeMs !== undefined ? formatDuration(summary.maxWallTimeMs) : undefined].filter(Boolean);
  return `Reads ${plural(summary.fileCount, 'file')} (${formatBytes(summary.totalBytes)}) from ${where}, ${how}${skipped}.${stops.length ? ` Stops at ${stops.join(' or ')}, whichever comes first.` : ''}`;
}
