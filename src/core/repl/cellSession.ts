// What the two kinds of REPL session (a process of its own, replSession.ts; a child run nested in its
// parent's interpreter, nestedSession.ts) do alike with the cell they run: pass its output on to the
// listeners, up to the capture limit, and stop it when asked. Each says how an interrupt reaches its cell.
import type { CellTracker } from './cellTracker';
import type { ReplOutputEvent } from './replTypes';

export abstract class CellSession {
  /** The cell running now, if any. */
  protected cell?: CellTracker;
  private readonly listeners = new Set<(event: ReplOutputEvent) => void>();

  /** Interrupts the running cell; `why` reaches its sub-calls and child runs in flight. */
  protected abstract sendInterrupt(why: string): void;

  /** Passes output of `cell` on: past its capture limit nothing is passed, whatever the process sends. */
  protected passOutput(cell: CellTracker | undefined, stream: 'stdout' | 'stderr', text: string): void {
    const kept = cell?.addOutput(stream, text);
    if (kept) for (const listener of this.listeners) listener({ stream, text: kept });
  }

  interrupt(): void {
    if (!this.cell) return;
    this.cell.markInterrupted();
    this.sendInterrupt('the cell was stopped');
  }

  onOutput(listener: (event: ReplOutputEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
