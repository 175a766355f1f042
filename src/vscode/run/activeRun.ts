// One run in progress, driven to the end by the extension: it fans the loop's events out to the
// trajectory file, to listeners (status bar, sidebar, trajectory view) and to a progress summary.
// Implements the trajectory view's LiveRun. No `vscode` import.
import type { RlmRun, RunResult } from '../../core/loop/loopTypes';
import type { EventRecord } from '../../core/trajectory/events';
import type { LiveRun, UserCellHost } from '../trajectory/liveRunTypes';
import { initialProgress, reduceProgress } from './runProgress';
import type { RunProgress } from './runProgress';

/** Where a run's records are written. `write` must not throw for one bad record (the writer is crash-safe). */
export interface TrajectorySink {
  readonly path: string;
  write(record: EventRecord): void;
  close(): Promise<void>;
}

interface ActiveRunOptions {
  run: RlmRun;
  controller: AbortController;
  sink?: TrajectorySink;
  /** The question, for "a run is already going" messages. */
  question: string;
  now: () => number;
  /** The file stays open after the run, for the user's own cells (closeRecord() closes it). */
  holdRecord?: boolean;
}

export class ActiveRun implements LiveRun {
  readonly runId: string;
  readonly question: string;
  readonly startedAt: number;
  /** Settles when the run is over, successful or not; never rejects. */
  readonly result: Promise<RunResult>;
  private readonly recorded: EventRecord[] = [];
  private readonly listeners = new Set<(record: EventRecord) => void>();
  private currentProgress: RunProgress = initialProgress();
  private thrown: unknown;
  private lastSeq = 0;
  private recordClosed = false;
  /** Runs the user's own cells in this run's REPL after it (set by the launcher). */
  userCells?: UserCellHost;

  constructor(private readonly options: ActiveRunOptions) {
    this.runId = options.run.runId;
    this.question = options.question;
    this.startedAt = options.now();
    this.result = this.drive();
  }

  get trajectoryPath(): string | undefined {
    return this.options.sink?.path;
  }

  get progress(): RunProgress {
    return this.currentProgress;
  }

  /** The typed error the loop threw, if it threw instead of finishing with run.finished. */
  get error(): unknown {
    return this.thrown;
  }

  get stopping(): boolean {
    return this.options.controller.signal.aborted;
  }

  records(): readonly EventRecord[] {
    return this.recorded;
  }

  subscribe(listener: (record: EventRecord) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    this.options.controller.abort(new Error('Stopped by the user'));
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
    this.currentProgress = reduceProgress(this.currentProgress, record);
    for (const listener of [...this.listeners]) {
      try {
        listener(record);
      } catch {
        // A failing listener (e.g. a disposed view) must not end the run for everyone else.
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
    if (finished) {
      const { runId, status, answer, forced, error, totals } = finished;
      return { runId, status, answer, forced, error, totals };
    }
    const aborted = this.options.controller.signal.aborted;
    const err = failure instanceof Error ? failure : new Error(failure === undefined ? 'the run ended without a result' : String(failure));
    return {
      runId: this.runId,
      status: aborted ? 'cancelled' : 'error',
      forced: false,
      error: { kind: err.name, message: err.message },
      totals: {
        inputTokens: this.currentProgress.inputTokens,
        outputTokens: this.currentProgress.outputTokens,
        costUsd: this.currentProgress.costUsd,
        costUnknown: this.currentProgress.costUnknown,
        subCalls: this.currentProgress.subCalls,
        iterations: this.currentProgress.turn,
        wallTimeMs: this.options.now() - this.startedAt,
      },
    };
  }
}
