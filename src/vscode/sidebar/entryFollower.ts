// Streams a run's figures and text into its chat entry on the run's tick (the same moment the status
// bar, the notification and the trajectory view redraw), so a fast model cannot flood the webview
// and the chat never disagrees with them. No `vscode` import.
import type { ChatEntry } from '../../shared/sidebarState';
import type { ActiveRun } from '../run/activeRun';

/** The streaming text shown in the entry: the end of the current turn's output. */
export const STREAM_TAIL_CHARS = 1200;

export class EntryFollower {
  private readonly unsubscribe: () => void;
  private disposed = false;

  constructor(
    private readonly run: Pick<ActiveRun, 'onTick' | 'progress'>,
    private readonly update: (patch: Partial<ChatEntry>) => void,
  ) {
    this.unsubscribe = run.onTick(() => this.flush());
  }

  flush(): void {
    if (this.disposed) return;
    const { streamingText, turn, subCalls, inputTokens, outputTokens, costUsd, costUnknown, costLocal, activity } = this.run.progress;
    this.update({ live: { turn, subCalls, inputTokens, outputTokens, costUsd, costUnknown, costLocal, activity }, streamingText: streamingText.slice(-STREAM_TAIL_CHARS) });
  }

  /** Sends the last state and stops following. */
  dispose(): void {
    this.flush();
    this.disposed = true;
    this.unsubscribe();
  }
}
