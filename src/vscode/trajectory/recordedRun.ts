// Helpers for runs read from files: the reader's problems in the header's short form, and the source
// label. No `vscode` import.
import type { TrajectoryReadResult } from '../../core/trajectory/trajectoryReader';
import type { ReadProblem } from '../../core/trajectory/treeTypes';
import type { RunSourceInfo } from './runProjection';

export function problemSummary(problems: ReadProblem[], first = 5): { count: number; first: string[] } {
  return { count: problems.length, first: problems.slice(0, first).map((p) => `line ${p.line}: ${p.message}`) };
}

/** How the view labels where a recorded run came from. */
export function recordedSourceInfo(result: Pick<TrajectoryReadResult, 'format' | 'header' | 'problems'>, source: string): RunSourceInfo {
  const header = result.header as { rootModel?: unknown } | undefined;
  return {
    source,
    format: result.format === 'rlm-trajectory' ? 'rlm' : 'reference',
    problems: problemSummary(result.problems),
    ...(typeof header?.rootModel === 'string' ? { rootModel: header.rootModel } : {}),
  };
}
