// A summary of a trajectory of any size in flat memory: counters only, no content is kept. This is
// what `rlm show` prints.
import type { RunStatus } from './events';
import type { ImportedHeader } from './referenceImport';
import { RunTallies } from './runTally';
import { scanTrajectory } from './trajectoryScanner';
import type { TrajectoryFormatKind, TrajectoryHeader } from './trajectoryFormat';
import type { ReadProblem } from './treeTypes';

export interface TrajectorySummary {
  format: TrajectoryFormatKind;
  header: TrajectoryHeader | ImportedHeader | undefined;
  question: string;
  status: RunStatus | 'running' | 'incomplete' | 'empty';
  answer?: string;
  forced: boolean;
  /** Turns and cells of the root run; `cells` also counts those of child runs. */
  turns: number;
  rootCells: number;
  cells: number;
  cellErrors: number;
  subCalls: number;
  subCallErrors: number;
  childRuns: number;
  inputTokens: number;
  outputTokens: number;
  /** Sum of known costs; null when no cost is known. */
  costUsd: number | null;
  costUnknown: boolean;
  /** Prompt tokens read from the providers' caches, and what caching saved (known prices only). */
  cacheReadTokens: number;
  savedUsd: number;
  /** Sub-calls answered from the sub-call cache. */
  cachedSubCalls: number;
  wallTimeMs: number;
  events: number;
  unknownEvents: number;
  problemCount: number;
  /** The first problems found (at most MAX_KEPT_PROBLEMS); problemCount has them all. */
  problems: ReadProblem[];
}

const MAX_KEPT_PROBLEMS = 50;

export async function summarizeTrajectory(path: string): Promise<TrajectorySummary> {
  const tallies = new RunTallies();
  const problems: ReadProblem[] = [];
  let problemCount = 0;
  let unknownEvents = 0;
  let header: TrajectoryHeader | ImportedHeader | undefined;
  const report = (p: ReadProblem): void => {
    problemCount++;
    if (problems.length < MAX_KEPT_PROBLEMS) problems.push(p);
  };
  let lastLine = 0;
  const format = await scanTrajectory(path, {
    onHeader: (h) => (header = h),
    onRecord: (record, line) => {
      lastLine = line;
      tallies.apply(record);
    },
    onUnknown: () => unknownEvents++,
    onProblem: report,
  });
  for (const run of tallies.unfinished()) {
    report({ line: lastLine, kind: 'missing-end', message: `run ${run.runId} has no run.finished: the file ends before the run did` });
  }
  const root = tallies.root;
  const totals = root?.totals;
  return {
    format,
    header,
    question: root?.question ?? (header && 'question' in header ? header.question ?? '' : ''),
    status: root === undefined ? 'empty' : root.status ?? 'incomplete',
    ...(root?.answer !== undefined && { answer: root.answer }),
    forced: root?.forced ?? false,
    turns: totals?.iterations ?? 0,
    rootCells: root?.cells ?? 0,
    cells: sumRuns(tallies, (r) => r.cells),
    cellErrors: sumRuns(tallies, (r) => r.cellErrors),
    subCalls: totals?.subCalls ?? 0,
    subCallErrors: sumRuns(tallies, (r) => r.subCallErrors),
    childRuns: root?.childRuns ?? 0,
    inputTokens: totals?.inputTokens ?? 0,
    outputTokens: totals?.outputTokens ?? 0,
    costUsd: totals?.costUsd ?? null,
    costUnknown: totals?.costUnknown ?? false,
    cacheReadTokens: totals?.cacheReadTokens ?? 0,
    savedUsd: totals?.savedUsd ?? 0,
    cachedSubCalls: totals?.cachedSubCalls ?? 0,
    wallTimeMs: root ? (root.finishedAt ?? root.lastTs) - root.startedAt : 0,
    events: tallies.events,
    unknownEvents,
    problemCount,
    problems,
  };
}

function sumRuns(tallies: RunTallies, pick: (run: NonNullable<ReturnType<RunTallies['get']>>) => number): number {
  let total = 0;
  for (const run of tallies.all()) total += pick(run);
  return total;
}
