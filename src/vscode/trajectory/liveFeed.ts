// Follows a live run's tree and batches what changed, so the webview gets at most one update per flush
// however fast events arrive. A run that shares its tree (ActiveRun) is followed directly and flushed
// on the run's tick, so the view shows the figures the status bar and the chat show, at the same
// moment; any other LiveRun is replayed into a tree of the feed's own. Streamed model text is pushed
// on its own (the whole text so far for the turn), without re-sending the turn body.
import { TreeBuilder } from '../../core/trajectory/treeBuilder';
import { newRunNode } from '../../core/trajectory/treeNodes';
import type { EventRecord } from '../../core/trajectory/events';
import type { RunNode } from '../../core/trajectory/treeTypes';
import { ChangeCollector, type StreamPush } from './changeCollector';
import type { LiveRun } from '../run/liveRunTypes';
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
  readonly builder: TreeBuilder;
  private readonly collector: ChangeCollector;
  private cancelTimer: (() => void) | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly placeholder: RunNode;

  constructor(private readonly options: LiveFeedOptions) {
    this.placeholder = emptyRunningRun(options.run.runId, Date.now());
    if (options.run.question) this.placeholder.question = options.run.question;
    this.builder = options.run.shared?.builder ?? new TreeBuilder();
    this.collector = new ChangeCollector(this.builder);
  }

  /** Follows the run's shared tree, or replays what the run has emitted so far into our own; then follows it. */
  start(): void {
    const shared = this.options.run.shared;
    if (shared) {
      const unsubscribeRecords = shared.subscribe((record, applied) => this.collector.note(record, applied));
      const unsubscribeTicks = shared.onTick(() => this.flush());
      this.unsubscribe = () => {
        unsubscribeRecords();
        unsubscribeTicks();
      };
      return;
    }
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
