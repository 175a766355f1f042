// Running counters per run, kept from the event stream without holding any content. The writer uses
// them to end a file it is closing early, and `rlm show` uses them to summarise files of any size
// with flat memory. Usage of a child run is also counted in every ancestor run.
import { runIsNoCharge } from '../models/pricing';
import type { TokenUsage } from '../models/modelTypes';
import type { RunSessionInfo, RunStatus, UsageTotals } from './events';
import type { BuildableRecord } from './treeBuilder';

interface RunTally {
  runId: string;
  parentRunId?: string;
  depth: number;
  /** The question, clipped: this object must stay small. */
  question: string;
  startedAt: number;
  lastTs: number;
  finishedAt?: number;
  status?: RunStatus;
  answer?: string;
  forced: boolean;
  cells: number;
  cellErrors: number;
  subCallErrors: number;
  childRuns: number;
  /** Root-model replies that arrived: the turns a person is told about (turnCount.ts). */
  turnsCompleted: number;
  /** Both models on a server with no per-token charge (a recorded $0 is then "local (no charge)"). */
  local: boolean;
  totals: UsageTotals;
  /** How a follow-up stood to the runs before it (imported logs). */
  session?: RunSessionInfo;
}

const QUESTION_CLIP = 500;

function emptyUsageTotals(): UsageTotals {
  return { inputTokens: 0, outputTokens: 0, costUsd: null, costUnknown: false, subCalls: 0, iterations: 0, wallTimeMs: 0 };
}

export class RunTallies {
  private readonly runs = new Map<string, RunTally>();
  private rootId: string | undefined;
  /** Top-level runs in start order: one, or a conversation's runs. */
  private readonly topIds: string[] = [];
  /** Runs started and not finished, in start order. */
  private readonly open = new Set<string>();
  lastSeq = 0;
  lastTs = 0;
  events = 0;

  get root(): RunTally | undefined {
    return this.rootId === undefined ? undefined : this.runs.get(this.rootId);
  }

  /** Top-level runs in start order. */
  topLevel(): RunTally[] {
    return this.topIds.flatMap((id) => this.runs.get(id) ?? []);
  }

  all(): IterableIterator<RunTally> {
    return this.runs.values();
  }

  get(runId: string): RunTally | undefined {
    return this.runs.get(runId);
  }

  /** Unfinished runs, innermost (latest started) first: the order in which to end them. */
  unfinished(): RunTally[] {
    return [...this.open].reverse().flatMap((id) => this.runs.get(id) ?? []);
  }

  apply(record: BuildableRecord): void {
    this.events++;
    this.lastSeq = Math.max(this.lastSeq, record.seq);
    this.lastTs = Math.max(this.lastTs, record.ts);
    const run = this.runs.get(record.runId);
    if (run) {
      run.lastTs = Math.max(run.lastTs, record.ts);
      run.totals.wallTimeMs = run.lastTs - run.startedAt;
    }
    switch (record.type) {
      case 'run.started': {
        if (this.runs.has(record.runId)) return;
        this.runs.set(record.runId, {
          runId: record.runId,
          parentRunId: record.parentRunId,
          depth: record.depth,
          question: record.question.length > QUESTION_CLIP ? `${record.question.slice(0, QUESTION_CLIP)}…` : record.question,
          startedAt: record.ts,
          lastTs: record.ts,
          forced: false,
          cells: 0,
          cellErrors: 0,
          subCallErrors: 0,
          childRuns: 0,
          turnsCompleted: 0,
          local: runIsNoCharge(record.config),
          totals: emptyUsageTotals(),
          ...(record.session !== undefined && { session: record.session }),
        });
        this.open.add(record.runId);
        if (record.parentRunId === undefined) this.topIds.push(record.runId);
        if (record.parentRunId === undefined && this.rootId === undefined) this.rootId = record.runId;
        if (record.parentRunId !== undefined) this.forEachAncestor(record.parentRunId, (r) => r.childRuns++);
        return;
      }
      case 'turn.started':
        if (run) run.totals.iterations = Math.max(run.totals.iterations, record.turn);
        return;
      case 'model.output':
        if (run) run.turnsCompleted++;
        this.addUsage(record.runId, record.usage);
        return;
      case 'cell.started':
        if (run) run.cells++;
        return;
      case 'cell.finished':
        if (run && record.error) run.cellErrors++;
        return;
      case 'subcall.started':
        this.forEachAncestor(record.runId, (r) => r.totals.subCalls++);
        return;
      case 'subcall.finished':
        if (run && record.error) run.subCallErrors++;
        this.addUsage(record.runId, record.usage);
        return;
      case 'answer':
        if (run) {
          run.answer = record.text;
          run.forced = record.forced;
        }
        return;
      case 'run.finished':
        if (!run) return;
        run.status = record.status;
        run.forced = record.forced;
        if (record.answer !== undefined) run.answer = record.answer;
        run.finishedAt = record.ts;
        this.open.delete(record.runId);
        return;
      default:
        return;
    }
  }

  private addUsage(runId: string, usage: TokenUsage | undefined): void {
    if (!usage) return;
    this.forEachAncestor(runId, (r) => {
      r.totals.inputTokens += usage.inputTokens;
      r.totals.outputTokens += usage.outputTokens;
      if (usage.costUsd === null) r.totals.costUnknown = true;
      else r.totals.costUsd = (r.totals.costUsd ?? 0) + usage.costUsd;
      if (usage.includedInPlan) r.totals.includedInPlan = true;
      if (usage.cacheReadTokens) r.totals.cacheReadTokens = (r.totals.cacheReadTokens ?? 0) + usage.cacheReadTokens;
      if (usage.cacheWriteTokens) r.totals.cacheWriteTokens = (r.totals.cacheWriteTokens ?? 0) + usage.cacheWriteTokens;
      if (usage.savedUsd) r.totals.savedUsd = (r.totals.savedUsd ?? 0) + usage.savedUsd;
      if (usage.fromCache) r.totals.cachedSubCalls = (r.totals.cachedSubCalls ?? 0) + 1;
    });
  }

  private forEachAncestor(runId: string, fn: (run: RunTally) => void): void {
    // Bounded walk: a malformed file could link runs in a cycle.
    let current = this.runs.get(runId);
    for (let hops = 0; current && hops < 64; hops++) {
      fn(current);
      current = current.parentRunId === undefined ? undefined : this.runs.get(current.parentRunId);
    }
  }
}
