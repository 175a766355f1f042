// Streams a run's progress into its chat entry, at most every THROTTLE_MS, so a fast model cannot
// flood the webview with messages. No `vscode` import.
import type { ChatEntry } from '../../shared/sidebarState';
import type { ActiveRun } from '../run/activeRun';

export const THROTTLE_MS = 100;
/** The streaming text shown in the entry: the end of the current turn's output. */
export const STREAM_TAIL_CHARS = 1200;

export class EntryFollower {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly unsubscribe: () => void;
  private disposed = false;

  constructor(
    private readonly run: Pick<ActiveRun, 'subscribe' | 'progress'>,
    private readonly update: (patch: Partial<ChatEntry>) => void,
    private readonly throttleMs = THROTTLE_MS,
  ) {
    this.unsubscribe = run.subscribe(() => this.schedule());
  }

  private schedule(): void {
    if (this.timer || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, this.throttleMs);
  }

  flush(): void {
    if (this.disposed) return;
    const { streamingText, turn, subCalls, inputTokens, outputTokens, costUsd, costUnknown, includedInPlan, activity } = this.run.progress;
    this.update({ live: { turn, subCalls, inputTokens, outputTokens, costUsd, costUnknown, ...(includedInPlan ? { includedInPlan } : {}), activity }, streamingText: streamingText.slice(-STREAM_TAIL_CHARS) });
  }

  /** Sends the last state and stops following. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.flush();
    this.disposed = true;
    this.unsubscribe();
  }
}
