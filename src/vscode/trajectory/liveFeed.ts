// Feeds a live run's records into a TreeBuilder and batches what changed, so the webview gets at most
// one update per flush interval however fast events arrive. Streamed model text is pushed on its own
// (the whole text so far for the turn), without re-sending the turn body.
import { TreeBuilder } from '../../core/trajectory/treeBuilder';
import { newRunNode } from '../../core/trajectory/treeNodes';
import type { EventRecord } from '../../core/trajectory/events';
import type { RunNode } from '../../core/trajectory/treeTypes';
import { ChangeCollector, type StreamPush } from './changeCollector';
import type { LiveRun } from './liveRunTypes';
import type { RunChange } from './trajectorySession';

export type { StreamPush } from './changeCollector';

export type SetTimer = (fn: () => void, ms: number) => () => void;

export interface LiveFeedOptions {
  run: LiveRun;
  onFlush(changes: RunChange[], streams: StreamPush[]): void;
  /** Injected timer (tests pass a manual one). Returns a cancel function. */
  setTimer?: SetTimer;
  flushMs?: number;
}

export const defaultTimer: SetTimer = (fn, ms) => {
  const handle = setTimeout(fn, ms);
  return () => clearTimeout(handle);
};

/** A run with nothing in it yet, shown until its run.started arrives. */
export function emptyRunningRun(runId: string, startedAt: number): RunNode {
  return newRunNode(runId, 0, '', startedAt);
}

export class LiveFeed {
  readonly builder = new TreeBuilder();
  private readonly collector = new ChangeCollector(this.builder);
  private cancelTimer: (() => void) | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly placeholder: RunNode;

  constructor(private readonly options: LiveFeedOptions) {
    this.placeholder = emptyRunningRun(options.run.runId, Date.now());
  }

  /** Replays what the run has emitted so far, then follows it. */
  start(): void {
    for (const record of this.options.run.records()) this.builder.apply(record);
    this.unsubscribe = this.options.run.subscribe((record) => {
      this.apply(record);
      this.schedule();
    });
  }

  root(): RunNode {
    return this.builder.tree ?? this.placeholder;
  }

  isLive(): boolean {
    return this.root().status === 'running';
  }

  dispose(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.cancelTimer?.();
    this.cancelTimer = undefined;
  }

  /** Sends what is pending now (also called by the timer). */
  flush(): void {
    this.cancelTimer = undefined;
    const { changes, streams } = this.collector.take();
    if (changes.length || streams.length) this.options.onFlush(changes, streams);
  }

  private schedule(): void {
    if (this.cancelTimer) return;
    const timer = this.options.setTimer ?? defaultTimer;
    this.cancelTimer = timer(() => this.flush(), this.options.flushMs ?? 100);
  }

  private apply(record: EventRecord): void {
    this.collector.note(record, this.builder.apply(record));
  }
}
