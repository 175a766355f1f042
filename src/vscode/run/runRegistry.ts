// Which runs are going, keyed by what they are about: one run at a time per context. A second
// request for the same context is refused with a typed error the UI turns into a clear sentence.
import { RunBusyError } from '../errors/extensionErrors';
import type { ActiveRun } from './activeRun';

export class RunRegistry {
  private readonly runs = new Map<string, ActiveRun>();
  private readonly reserved = new Map<string, string>();
  private readonly changeListeners = new Set<() => void>();

  /**
   * Claims `contextKey` before the (slow) gathering starts, so two quick requests cannot both pass.
   * Returns a release function; throws RunBusyError when the key is taken.
   */
  reserve(contextKey: string, question: string): () => void {
    const running = this.runs.get(contextKey);
    const reservedBy = this.reserved.get(contextKey);
    if (running) throw new RunBusyError(contextKey, running.question);
    if (reservedBy !== undefined) throw new RunBusyError(contextKey, reservedBy);
    this.reserved.set(contextKey, question);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.reserved.delete(contextKey);
      this.notify();
    };
  }

  /** Registers a started run under its reserved key until its result settles. */
  track(contextKey: string, run: ActiveRun): void {
    this.runs.set(contextKey, run);
    this.notify();
    void run.result.finally(() => {
      if (this.runs.get(contextKey) === run) this.runs.delete(contextKey);
      this.notify();
    });
  }

  active(): ActiveRun[] {
    return [...this.runs.values()];
  }

  get(contextKey: string): ActiveRun | undefined {
    return this.runs.get(contextKey);
  }

  isBusy(contextKey: string): boolean {
    return this.runs.has(contextKey) || this.reserved.has(contextKey);
  }

  onDidChange(listener: () => void): () => void {
    this.changeListeners.add(listener);
    return () => this.changeListeners.delete(listener);
  }

  private notify(): void {
    for (const l of [...this.changeListeners]) l();
  }
}
