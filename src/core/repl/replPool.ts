// A ReplFactory that keeps one idle warm session for reuse, so the next run skips the Pyodide start (and,
// on the same context, the bind). Nothing starts until the first acquire() or prewarm(). A session given
// back as reusable has its namespace reset first, so no run sees another's variables. A pooled session
// outlives the run that created it, so its bridge is routed to whoever acquired it last.
import type { ReplAcquireOptions, ReplFactory } from '../loop/loopTypes';
import { createReplSession } from './replSession';
import type { ReplSessionOptions } from './replSession';
import type { BridgeHandler, ReplSession } from './replTypes';

export interface ReplPoolOptions {
  /** `bridge` here is the fallback for sessions acquired without one. */
  session: ReplSessionOptions;
  /** Injected for tests; default createReplSession. */
  create?: (options: ReplSessionOptions) => Promise<ReplSession>;
}

export class ReplPool implements ReplFactory {
  private idle?: Promise<ReplSession>;
  private readonly leased = new Set<ReplSession>();
  private readonly routes = new WeakMap<ReplSession, { target: BridgeHandler }>();
  private disposed = false;

  constructor(private readonly options: ReplPoolOptions) {}

  private async create(): Promise<ReplSession> {
    const route = { target: this.options.session.bridge };
    const bridge: BridgeHandler = (call, signal) => route.target(call, signal);
    const session = await (this.options.create ?? createReplSession)({ ...this.options.session, bridge });
    this.routes.set(session, route);
    return session;
  }

  /** Starts a session in the background so the next acquire() finds it warm. */
  prewarm(): void {
    if (this.disposed || this.idle) return;
    const warming = this.create();
    warming.catch(() => {
      if (this.idle === warming) this.idle = undefined;
    });
    this.idle = warming;
  }

  async acquire(options: ReplAcquireOptions = {}): Promise<ReplSession> {
    if (this.disposed) throw new Error('the REPL pool is disposed');
    options.signal?.throwIfAborted();
    const idle = this.idle;
    this.idle = undefined;
    const session = idle ? await idle.catch(() => this.create()) : await this.create();
    if (options.signal?.aborted) {
      // Nobody will use it now; keep it warm for the next caller instead of wasting the start.
      await this.release(session, true);
      options.signal.throwIfAborted();
    }
    const route = this.routes.get(session);
    if (route) route.target = options.bridge ?? this.options.session.bridge;
    this.leased.add(session);
    return session;
  }

  /**
   * Keeps a reusable session as the idle one (closing any older idle one) once its namespace is reset;
   * closes the rest, and any session that cannot be reset. Resolves when the session is idle or closed.
   */
  async release(session: ReplSession, reusable: boolean): Promise<void> {
    this.leased.delete(session);
    const route = this.routes.get(session);
    if (route) route.target = this.options.session.bridge;
    if (!reusable || this.disposed || !session.resetNamespace) {
      await session.close();
      return;
    }
    const resetting = session.resetNamespace().then(
      () => session,
      async (err: unknown) => {
        await session.close().catch(() => undefined);
        throw err;
      },
    );
    const previous = this.idle;
    this.idle = resetting;
    resetting.catch(() => {
      if (this.idle === resetting) this.idle = undefined;
    });
    if (previous) await (await previous.catch(() => undefined))?.close();
    await resetting.catch(() => undefined);
  }

  get leasedCount(): number {
    return this.leased.size;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const idle = this.idle;
    this.idle = undefined;
    const sessions = [...this.leased];
    this.leased.clear();
    await Promise.all([...sessions.map((s) => s.close()), idle?.then((s) => s.close(), () => undefined)]);
  }
}
