// Streams a run's figures and text into its chat entry on the run's tick (the same moment the status
// bar, the notification and the trajectory view redraw), so a fast model cannot flood the webview
// and the chat never disagrees with them. No `vscode` import.
import type { ChatEntry } from '../../shared/sidebarState';
import type { ActiveRun } from '../run/activeRun';

/** The streaming text shown in the entry: the end of the current turn's output. */
export const STREAM_TAIL_CHARS = 1200;

/**
 * The end of the model's text, cut at a line start; when the cut falls inside a code block the fence
 * is put back, so the chat still shows that code as code and not as prose.
 */
export function streamTail(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = text.length - max;
  const nextLine = text.indexOf('\n', cut);
  if (nextLine >= 0 && nextLine < text.length - 1) cut = nextLine + 1;
  const before = text.slice(0, cut);
  const fences = before.match(/^ {0,3}(?:`{3,}|~{3,})/gm)?.length ?? 0;
  return `${fences % 2 === 1 ? '```\n' : ''}${text.slice(cut)}`;
}

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
    const { streamingText, rootRunId: _rootRunId, finished: _finished, ...live } = this.run.progress;
    this.update({ live, streamingText: streamTail(streamingText, STREAM_TAIL_CHARS) });
  }

  /** Sends the last state and stops following. */
  dispose(): void {
    this.flush();
    this.disposed = true;
    this.unsubscribe();
  }
}
