// One run in progress, driven to the end by the extension: it fans the loop's events out to the
// trajectory file, to the run's tree (the one reducer every surface reads) and to listeners (status
// bar, chat, trajectory view). A tick tells them all to redraw at the same moment: at once after a
// quiet spell, at most every TICK_MS during a burst, and once at the end. Implements the trajectory view's LiveRun. No `vscode` import.
import { completedTurns } from '../../core/trajectory/turnCount';
import { errorKindOf } from '../../core/errorKind';
import { RunCancelledError } from '../../core/loop/loopErrors';
import type { RlmRun, RunResult } from '../../core/loop/loopTypes';
import type { EventRecord } from '../../core/trajectory/events';
import { TreeBuilder, type ApplyResult } from '../../core/trajectory/treeBuilder';
import type { LiveRun, SharedRunTree, UserCellHost } from './liveRunTypes';
import { activityAfter, progressOf } from './runProgress';
import type { RunProgress } from './runProgress';

/** Where a run's records are written. `write` must not throw for one bad record (the writer is crash-safe). */
export interface TrajectorySink {
  readonly path: string;
  write(record: EventRecord): void;
  close(): Promise<void>;
}

/**
 * The most a record waits for its tick, and the least time between two ticks: every surface shows
 * an event within this (issue 31 asks for 100 ms, with room left for posting and drawing), and
 * redraws at most 1000 / TICK_MS times a second however fast events arrive.
 */
export const TICK_MS = 50;

/**
 * How long a record arriving at `now` waits for its tick: none after a quiet spell (the timer's 0 still
 * gathers the records of one burst into one tick), else until TICK_MS after the last tick.
 */
export function tickDelay(now: number, lastTickAt: number | undefined): number {
  if (lastTickAt === undefined) return 0;
  return Math.min(TICK_MS, Math.max(0, lastTickAt + TICK_MS - now));
}

type SetTimer = (fn: () => void, ms: number) => () => void;

const defaultTimer: SetTimer = (fn, ms) => {
  const handle = setTimeout(fn, ms);
  return () => clearTimeout(handle);
};

interface ActiveRunOptions {
  run: RlmRun;
  controller: AbortController;
  sink?: TrajectorySink;
  /** The question, for "a run is already going" messages and titles. */
  question: string;
  now: () => number;
  /** Injected timer for the tick (tests pass a manual one). */
  setTimer?: SetTimer;
  /** The conversation the question belongs to (its follow-ups share it, and its view). */
  conversationId?: string;
  /** The file stays open after the run, for the user's own cells (closeRecord() closes it). */
  holdRecord?: boolean;
}

type Listener = (record: EventRecord, applied: ApplyResult) => void;

export class ActiveRun implements LiveRun {
  readonly runId: string;
  readonly question: string;
  readonly startedAt: number;
  readonly conversationId: string | undefined;
  /** Settles when the run is over, successful or not; never rejects. */
  readonly result: Promise<RunResult>;
  /**
   * Settles as soon as the root's answer can be shown with its citations: at the root's `references`
   * record (or the fallback saying they could not be checked), before the coverage strip, which reads
   * the whole input again; else with `result`. Never rejects. Surfaces show the answer from this and
   * their final figures from `result` (issue 33: the answer before the bookkeeping).
   */
  readonly answered: Promise<RunResult>;
  private settleAnswered: (result: RunResult) => void = () => undefined;
  private answerSettled = false;
  private rootAnswer: Extract<EventRecord, { type: 'answer' }> | undefined;
  readonly tree = new TreeBuilder();
  private readonly recorded: EventRecord[] = [];
  private readonly listeners = new Set<Listener>();
  private readonly tickListeners = new Set<() => void>();
  private cancelTick: (() => void) | undefined;
  private lastTickAt: number | undefined;
  private activity = 'starting the Python sandbox';
  private thrown: unknown;
  private lastSeq = 0;
  private recordClosed = false;
  /** Runs the user's own cells in this run's REPL after it (set by the launcher). */
  userCells?: UserCellHost;

  constructor(private readonly options: ActiveRunOptions) {
    this.runId = options.run.runId;
    this.question = options.question;
    this.conversationId = options.conversationId;
    this.startedAt = options.now();
    this.answered = new Promise((resolve) => {
      this.settleAnswered = (result) => {
        this.answerSettled = true;
        resolve(result);
      };
    });
    this.result = this.drive();
    void this.result.then((result) => this.settleAnswered(result));
  }

  get trajectoryPath(): string | undefined {
    return this.options.sink?.path;
  }

  /** The figures every surface shows, read off the run's tree now. */
  get progress(): RunProgress {
    return progressOf(this.tree.tree, this.activity);
  }

  /** The root turns this run completed (src/core/trajectory/turnCount.ts): what its outcome counts. */
  get turnsCompleted(): number {
    return this.tree.tree ? completedTurns(this.tree.tree) : 0;
  }

  /** The answer is out (`answered` settled): what is left is bookkeeping, which ends by itself. */
  get answerShown(): boolean {
    return this.answerSettled;
  }

  /** The typed error the loop threw, if it threw instead of finishing with run.finished. */
  get error(): unknown {
    return this.thrown;
  }

  get stopping(): boolean {
    return this.options.controller.signal.aborted;
  }

  get shared(): SharedRunTree {
    return { builder: this.tree, subscribe: (l) => this.subscribe(l), onTick: (l) => this.onTick(l) };
  }

  records(): readonly EventRecord[] {
    return this.recorded;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** `listener` runs on every tick: redraw figures here, not on every record. */
  onTick(listener: () => void): () => void {
    this.tickListeners.add(listener);
    return () => this.tickListeners.delete(listener);
  }

  stop(): void {
    this.options.controller.abort(new RunCancelledError('stopped by the user'));
  }

  /** The seq of the last record of the run's stream: records appended later follow it. */
  get lastRecordSeq(): number {
    return this.lastSeq;
  }

  /** Adds a record after the run (a user's cell): to the file, the views and the progress. */
  append(record: EventRecord): void {
    if (record.seq <= this.lastSeq) throw new Error(`record ${record.type} has seq ${record.seq}, not after ${this.lastSeq}`);
    this.deliver(record);
  }

  /** Closes the file kept open by holdRecord; later records reach the views only. */
  async closeRecord(): Promise<void> {
    if (this.recordClosed) return;
    this.recordClosed = true;
    await this.options.sink?.close().catch(() => undefined);
  }

  private deliver(record: EventRecord): void {
    this.lastSeq = Math.max(this.lastSeq, record.seq);
    // Streamed deltas are not kept: model.output and cell.finished carry the whole text.
    if (record.type !== 'model.delta' && record.type !== 'cell.output') this.recorded.push(record);
    if (!this.recordClosed) this.options.sink?.write(record);
    const applied = this.tree.apply(record);
    this.activity = activityAfter(this.activity, record, this.tree.tree?.runId);
    this.noteAnswer(record);
    for (const listener of [...this.listeners]) {
      try {
        listener(record, applied);
      } catch {
        // A failing listener (e.g. a disposed view) must not end the run for everyone else.
      }
    }
    this.cancelTick ??= (this.options.setTimer ?? defaultTimer)(() => this.tick(), tickDelay(this.options.now(), this.lastTickAt));
  }

  /** The root's answer, then its citations: the answer can be shown (see `answered`). */
  private noteAnswer(record: EventRecord): void {
    if (record.runId !== this.runId) return;
    if (record.type === 'answer') this.rootAnswer = record;
    else if (this.rootAnswer && (record.type === 'references' || (record.type === 'fallback' && record.kind === 'references-unresolved'))) {
      this.settleAnswered(this.answeredResult(this.rootAnswer));
    }
  }

  /** What run.finished will say of an answered run, read before it: the status follows the answer's kind. */
  private answeredResult(answer: Extract<EventRecord, { type: 'answer' }>): RunResult {
    const forced = answer.forced === true;
    // A draft is the answer of a run a limit stopped before any turn could give one (runDriver).
    const status = answer.via === 'draft' ? 'limit' : forced ? 'forced' : 'completed';
    return { runId: this.runId, status, forced, answer: answer.text, totals: this.totalsNow() };
  }

  private totalsNow(): RunResult['totals'] {
    const p = this.progress;
    return {
      inputTokens: p.inputTokens,
      outputTokens: p.outputTokens,
      costUsd: p.costUsd,
      costUnknown: p.costUnknown,
      subCalls: p.subCalls,
      iterations: p.turn,
      wallTimeMs: this.options.now() - this.startedAt,
    };
  }

  private tick(): void {
    this.cancelTick?.();
    this.cancelTick = undefined;
    this.lastTickAt = this.options.now();
    for (const listener of [...this.tickListeners]) {
      try {
        listener();
      } catch {
        // As above: one broken surface must not stop the others from redrawing.
      }
    }
  }

  private async drive(): Promise<RunResult> {
    let finished: Extract<EventRecord, { type: 'run.finished' }> | undefined;
    let failure: unknown;
    try {
      for await (const record of this.options.run) {
        this.deliver(record);
        if (record.type === 'run.finished' && record.runId === this.runId) finished = record;
      }
    } catch (error) {
      failure = error;
      this.thrown = error;
    } finally {
      // A run whose REPL is kept for the user's cells keeps its file open until that ends too.
      if (!this.options.holdRecord || failure !== undefined) await this.closeRecord();
    }
    const result = finished ? resultOf(finished) : this.failedResult(failure);
    if (!finished) this.activity = 'finished';
    // The last figures reach every surface now, not a tick later.
    this.tick();
    return result;
  }

  private failedResult(failure: unknown): RunResult {
    const aborted = this.options.controller.signal.aborted;
    const err = failure instanceof Error ? failure : new Error(failure === undefined ? 'the run ended without a result' : String(failure));
    return {
      runId: this.runId,
      status: aborted ? 'cancelled' : 'error',
      forced: false,
      error: { kind: aborted ? 'cancelled' : errorKindOf(failure), message: err.message },
      totals: this.totalsNow(),
    };
  }
}

function resultOf(finished: Extract<EventRecord, { type: 'run.finished' }>): RunResult {
  const { runId, status, answer, forced, error, partial, totals } = finished;
  return { runId, status, forced, totals, ...(answer !== undefined ? { answer } : {}), ...(error ? { error } : {}), ...(partial !== undefined ? { partial } : {}) };
}
