// The REPL of a run asked outside a chat. The loop acquires it as it always does (so the first root
// request still goes out while the REPL starts), through a factory that keeps it when the run releases
// it: the user's cells run there after the run, until end(). Child runs' REPLs are released as usual.
// No `vscode` import.
import type { BridgeRouter, ReplAcquireOptions, ReplFactory } from '../../core/repl/replFactory';
import type { ReplSession } from '../../core/repl/replTypes';
import type { WarmSession } from './conversation';

export class OwnSession {
  private kept: WarmSession | undefined;
  private rootTaken = false;
  private ended = false;
  private claimed = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly inner: ReplFactory,
    private readonly createRouter: () => BridgeRouter,
  ) {}

  /** The factory to give the run: its first session (the root's) is acquired behind a router and kept. */
  readonly factory: ReplFactory = {
    acquire: async (options?: ReplAcquireOptions): Promise<ReplSession> => {
      if (this.rootTaken) return this.inner.acquire(options);
      this.rootTaken = true;
      const router = this.createRouter();
      if (options?.bridge) router.route(options.bridge);
      const session = await this.inner.acquire({ ...options, bridge: router.handler });
      if (this.ended) {
        await this.inner.release(session);
        return session;
      }
      this.kept = { session, router, factory: this.inner };
      return session;
    },
    release: async (session: ReplSession): Promise<void> => {
      if (session === this.kept?.session && !this.ended) {
        // The run's bridge stops here: a user's cell routes its own.
        this.kept.router.route(() => Promise.resolve([]))();
        return;
      }
      await this.inner.release(session);
    },
  };

  get warmSession(): WarmSession | undefined {
    return this.ended ? undefined : this.kept;
  }

  get busy(): boolean {
    return this.claimed > 0;
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  claim(): () => void {
    this.claimed += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.claimed -= 1;
      this.changed();
    };
  }

  /** Nothing asks a later question here, so the notes have no reader. */
  noteUserCell(): void {}

  /** A failed run's REPL is not trusted for the user's cells (as a chat's is not for its next question). */
  async finish(status: string): Promise<void> {
    if (status === 'error') await this.end();
  }

  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const kept = this.kept;
    this.kept = undefined;
    if (kept) await this.inner.release(kept.session).catch(() => undefined);
    this.changed();
  }

  private changed(): void {
    for (const listener of [...this.listeners]) listener();
  }
}
