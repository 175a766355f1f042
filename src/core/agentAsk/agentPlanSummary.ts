// What a run an agent asked for will read and may spend, said before it starts: VS Code's confirmation
// shows it, `rlm mcp` sends it as the first progress message. Paths and sizes only, never contents.
import type { ContextPlan } from '../context/contextTypes';
import type { RunLimits } from '../loop/loopTypes';
import { formatBytes, formatDuration, plural } from '../../shared/format';

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
  return `Reads ${plural(summary.fileCount, 'file')} (${formatBytes(summary.totalBytes)}) from ${where}, ${how}${skipped}.${describeStops(summary)}`;
}

/** "Reads the 40 selected lines of src/x.ts (lines 40-79): 1.3 KB, bound at their own line numbers … Stops at …" */
export function describeAgentSelection(selection: string, selectedBytes: number, limits: Partial<RunLimits>): string {
  return `Reads ${selection}: ${formatBytes(selectedBytes)}, bound at their own line numbers so references point into the file.${describeStops(limits)}`;
}

/** " Stops at $0.50 or 5 min 0 s, whichever comes first." (with a leading space), or nothing without limits. */
function describeStops(limits: Pick<Partial<RunLimits>, 'maxCostUsd' | 'maxWallTimeMs'>): string {
  const stops = [limits.maxCostUsd !== undefined ? `$${limits.maxCostUsd.toFixed(2)}` : undefined, limits.maxWallTimeMs !== undefined ? formatDuration(limits.maxWallTimeMs) : undefined].filter(Boolean);
  return stops.length ? ` Stops at ${stops.join(' or ')}, whichever comes first.` : '';
}
