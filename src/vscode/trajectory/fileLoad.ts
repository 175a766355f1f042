// Reads a trajectory file (ours or the reference format) into the run tree progressively, so a view
// can show the first turns while a large file is still being read, and gets the rest as updates.
// Uses the trajectory reader's scanner and TreeBuilder, as readTrajectory does. No `vscode` import.
import { TreeBuilder } from '../../core/trajectory/treeBuilder';
import type { ImportedHeader } from '../../core/trajectory/referenceImport';
import type { TrajectoryFormatKind, TrajectoryHeader } from '../../core/trajectory/trajectoryFormat';
import type { ReadProblem, RunNode } from '../../core/trajectory/treeTypes';
import { ChangeCollector } from './changeCollector';
import { defaultTimer, emptyRunningRun, type SetTimer } from './liveFeed';
import type { RunSourceInfo } from './runProjection';
import { problemSummary } from './recordedRun';
import type { RunChange } from './trajectorySession';

export interface FileLoadOptions {
  /** How the source is labelled in the header (e.g. a workspace-relative path). */
  source: string;
  /** Turns read before the view is shown. */
  firstScreenTurns?: number;
  flushMs?: number;
  setTimer?: SetTimer;
}

export class FileLoad {
  private readonly builder = new TreeBuilder();
  private readonly collector = new ChangeCollector(this.builder);
  private readonly listeners = new Set<(changes: RunChange[]) => void>();
  private readonly problems: ReadProblem[] = [];
  private header: TrajectoryHeader | ImportedHeader | undefined;
  private format: TrajectoryFormatKind | undefined;
  private reading = true;
  private cancelTimer: (() => void) | undefined;
  private readonly placeholder: RunNode;
  /** Resolves when the whole file has been read; rejects when it cannot be (e.g. NotATrajectoryError). */
  readonly done: Promise<void>;
  /** Resolves once the first screenful of turns is in (or the file ended); rejects like `done` before that. */
  readonly firstScreen: Promise<void>;

  constructor(
    readonly path: string,
    private readonly options: FileLoadOptions,
  ) {
    this.placeholder = { ...emptyRunningRun('run', 0), status: 'incomplete' };
    let screenReady!: () => void;
    let screenFailed!: (error: unknown) => void;
    this.firstScreen = new Promise<void>((resolve, reject) => {
      screenReady = resolve;
      screenFailed = reject;
    });
    const wanted = options.firstScreenTurns ?? 24;
    // The scanner (and the zod schemas it checks records with) is loaded with the first file, not at activation.
    this.done = import('../../core/trajectory/trajectoryScanner').then(({ scanTrajectory }) => scanTrajectory(path, {
      onHeader: (header, format) => {
        this.header = header;
        this.format = format;
      },
      onRecord: (record, line) => {
        const result = this.builder.apply(record);
        if (result.problem) this.problems.push({ line, ...result.problem });
        this.collector.note(record, result);
        if ((this.builder.tree?.turns.length ?? 0) >= wanted) screenReady();
        this.schedule();
      },
      onUnknown: () => undefined,
      onProblem: (problem) => this.problems.push(problem),
    })).then(
      () => {
        for (const runId of this.builder.markIncomplete()) {
          this.collector.noteRun(runId);
          this.problems.push({ line: 0, kind: 'missing-end', message: `run ${runId} has no run.finished: the file ends before the run did` });
        }
        this.reading = false;
        this.flush();
        screenReady();
      },
      (error: unknown) => {
        this.reading = false;
        screenFailed(error);
        throw error;
      },
    );
    // `done` is awaited by whoever wants the end; an early failure is reported through firstScreen.
    this.done.catch(() => undefined);
  }

  get loading(): boolean {
    return this.reading;
  }

  root(): RunNode {
    return this.builder.tree ?? this.placeholder;
  }

  /** Every top-level run read so far: one, or a conversation's question and follow-ups. */
  runs(): RunNode[] {
    return this.builder.roots.length ? this.builder.roots : [this.placeholder];
  }

  info(): RunSourceInfo {
    const header = this.header as { rootModel?: unknown } | undefined;
    return {
      source: this.options.source,
      format: this.format === 'rlm-python-jsonl' ? 'reference' : 'rlm',
      problems: problemSummary(this.problems),
      loading: this.reading,
      ...(typeof header?.rootModel === 'string' ? { rootModel: header.rootModel } : {}),
    };
  }

  /** Called with the changed turns after each batch read; returns an unsubscribe function. */
  onChange(listener: (changes: RunChange[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private schedule(): void {
    if (this.cancelTimer) return;
    this.cancelTimer = (this.options.setTimer ?? defaultTimer)(() => this.flush(), this.options.flushMs ?? 150);
  }

  private flush(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const { changes } = this.collector.take();
    const root = this.builder.tree;
    // The root's header (turn count, totals, loading state) changes with every batch.
    if (root && !changes.some((c) => c.runId === root.runId)) changes.push({ runId: root.runId, changedTurns: [] });
    if (changes.length) for (const listener of this.listeners) listener(changes);
  }
}
