// A summary of a trajectory of any size in flat memory: counters only, no content is kept. This is
// what `rlm show` prints.
import { referenceLabel } from '../../shared/text/referenceLabel';
import type { ProviderBatchCounts, RunSessionInfo, RunStatus } from './events';
import type { ImportedHeader } from './referenceImport';
import { RunTallies } from './runTally';
import { scanTrajectory } from './trajectoryScanner';
import type { TrajectoryFormatKind, TrajectoryHeader } from './trajectoryFormat';
import type { ReadProblem } from './treeTypes';

/** One question of a conversation: a top-level run and its own figures (child runs included). */
export interface ConversationRunSummary {
  runId: string;
  question: string;
  status: RunStatus | 'running' | 'incomplete';
  answer?: string;
  forced: boolean;
  turns: number;
  cells: number;
  subCalls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number | null;
  costUnknown: boolean;
  /** Both models on a server with no per-token charge. */
  local: boolean;
  wallTimeMs: number;
  session?: RunSessionInfo;
}

export interface TrajectorySummary {
  format: TrajectoryFormatKind;
  header: TrajectoryHeader | ImportedHeader | undefined;
  /** The first run's question and answer; `runs` has every one when the file holds a conversation. */
  question: string;
  status: RunStatus | 'running' | 'incomplete' | 'empty';
  answer?: string;
  forced: boolean;
  /**
   * The file's top-level runs in order: one, or every question of a conversation. The figures below
   * are their totals: turns and rootCells summed over them, the rest over every run.
   */
  runs: ConversationRunSummary[];
  /** Turns and cells of the top-level runs; `cells` also counts those of child runs. */
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
  /** Some call was paid by the user's plan (a VS Code language model). */
  includedInPlan: boolean;
  /** Every question's models on a server with no per-token charge. */
  local: boolean;
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
  /** The first run's references as they are cited (`a.ts:12`, `analysis.ipynb#cell=3:2`), at most MAX_KEPT_REFERENCES. */
  references?: { shown: string[]; count: number };
  /** Provider batches (--batch) of every run, as their last event left them: at most MAX_KEPT_BATCHES, `count` has them all. */
  providerBatches?: { shown: ProviderBatchSummary[]; count: number };
}

/** A provider batch as `rlm show` prints it (describeProviderBatch's figures). */
interface ProviderBatchSummary {
  provider: string;
  providerBatchId: string;
  status: string;
  counts: ProviderBatchCounts;
  elapsedMs: number;
  ended: boolean;
  cancelled?: boolean;
  resumed?: boolean;
  failure?: string;
}

const MAX_KEPT_PROBLEMS = 50;
const MAX_KEPT_REFERENCES = 20;
const MAX_KEPT_BATCHES = 20;

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
  // Per run, its references' labels: a few strings each, so memory stays flat.
  const references = new Map<string, { shown: string[]; count: number }>();
  // Per run and batch id, the first MAX_KEPT_BATCHES batches as their latest event tells them.
  const batches = new Map<string, ProviderBatchSummary>();
  let batchCount = 0;
  const format = await scanTrajectory(path, {
    onHeader: (h) => (header = h),
    onRecord: (record, line) => {
      lastLine = line;
      tallies.apply(record);
      if (record.type === 'references' && !references.has(record.runId)) references.set(record.runId, { shown: record.references.slice(0, MAX_KEPT_REFERENCES).map(referenceLabel), count: record.references.length });
      if (record.type === 'batch.submitted') {
        batchCount++;
        if (batches.size < MAX_KEPT_BATCHES) {
          const counts = { total: record.items.length, succeeded: 0, errored: 0, expired: 0, canceled: 0, processing: record.items.length };
          batches.set(`${record.runId}\0${record.batchId}`, { provider: record.provider, providerBatchId: record.providerBatchId, status: 'submitted', counts, elapsedMs: 0, ended: false, ...(record.resumed ? { resumed: true } : {}) });
        }
      } else if (record.type === 'batch.progress' || record.type === 'batch.ended') {
        const batch = batches.get(`${record.runId}\0${record.batchId}`);
        if (batch) {
          Object.assign(batch, { status: record.status, counts: { ...record.counts }, elapsedMs: record.elapsedMs });
          if (record.type === 'batch.ended') Object.assign(batch, { ended: true, ...(record.cancelled ? { cancelled: true } : {}), ...(record.failure !== undefined ? { failure: record.failure } : {}) });
        }
      }
    },
    onUnknown: () => unknownEvents++,
    onProblem: report,
  });
  for (const run of tallies.unfinished()) {
    report({ line: lastLine, kind: 'missing-end', message: `run ${run.runId} has no run.finished: the file ends before the run did` });
  }
  const root = tallies.root;
  const top = tallies.topLevel();
  const runs = top.map(runSummary);
  const sum = (pick: (r: ConversationRunSummary) => number): number => runs.reduce((n, r) => n + pick(r), 0);
  const costs = runs.filter((r) => r.costUsd !== null);
  const totalsOf = (pick: (t: NonNullable<typeof root>['totals']) => number | undefined): number => top.reduce((n, r) => n + (pick(r.totals) ?? 0), 0);
  const first = top[0];
  const last = top[top.length - 1];
  return {
    format,
    header,
    question: root?.question ?? (header && 'question' in header ? header.question ?? '' : ''),
    status: root === undefined ? 'empty' : conversationStatus(runs),
    ...(root?.answer !== undefined && { answer: root.answer }),
    forced: root?.forced ?? false,
    runs,
    turns: sum((r) => r.turns),
    rootCells: top.reduce((n, r) => n + r.cells, 0),
    cells: sumRuns(tallies, (r) => r.cells),
    cellErrors: sumRuns(tallies, (r) => r.cellErrors),
    subCalls: sum((r) => r.subCalls),
    subCallErrors: sumRuns(tallies, (r) => r.subCallErrors),
    childRuns: top.reduce((n, r) => n + r.childRuns, 0),
    inputTokens: sum((r) => r.inputTokens),
    outputTokens: sum((r) => r.outputTokens),
    costUsd: costs.length ? costs.reduce((n, r) => n + (r.costUsd ?? 0), 0) : null,
    costUnknown: runs.some((r) => r.costUnknown),
    includedInPlan: top.some((r) => r.totals.includedInPlan === true),
    local: top.length > 0 && top.every((r) => r.local),
    cacheReadTokens: totalsOf((t) => t.cacheReadTokens),
    savedUsd: totalsOf((t) => t.savedUsd),
    cachedSubCalls: totalsOf((t) => t.cachedSubCalls),
    wallTimeMs: first && last ? (last.finishedAt ?? last.lastTs) - first.startedAt : 0,
    events: tallies.events,
    unknownEvents,
    problemCount,
    problems,
    ...(root && references.has(root.runId) ? { references: references.get(root.runId)! } : {}),
    ...(batchCount ? { providerBatches: { shown: [...batches.values()], count: batchCount } } : {}),
  };
}

function runSummary(run: RunTallyOf): ConversationRunSummary {
  return {
    runId: run.runId,
    question: run.question,
    status: run.status ?? 'incomplete',
    ...(run.answer !== undefined && { answer: run.answer }),
    forced: run.forced,
    turns: run.turnsCompleted,
    cells: run.cells,
    subCalls: run.totals.subCalls,
    inputTokens: run.totals.inputTokens,
    outputTokens: run.totals.outputTokens,
    costUsd: run.totals.costUsd,
    costUnknown: run.totals.costUnknown,
    local: run.local,
    wallTimeMs: (run.finishedAt ?? run.lastTs) - run.startedAt,
    ...(run.session !== undefined && { session: run.session }),
  };
}

/** A conversation ended well only if every question did; otherwise the first that did not says how. */
function conversationStatus(runs: ConversationRunSummary[]): TrajectorySummary['status'] {
  return runs.find((r) => r.status !== 'completed')?.status ?? 'completed';
}

type RunTallyOf = NonNullable<ReturnType<RunTallies['get']>>;

function sumRuns(tallies: RunTallies, pick: (run: NonNullable<ReturnType<RunTallies['get']>>) => number): number {
  let total = 0;
  for (const run of tallies.all()) total += pick(run);
  return total;
}
