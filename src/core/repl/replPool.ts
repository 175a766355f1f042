// Where runs get their REPL sessions. No session serves two runs (docs/security.md, layer 4): every
// acquire() hands out a session no code has touched, and release() kills it. To keep that fast, the pool
// keeps `spares` never-used sessions started ahead of need; taking one costs nothing, and a replacement
// starts in the background at once. Nothing starts until prewarm() or the first acquire().
//
// A session is created with a fixed bridge handler, but is handed to whichever run acquires it, so each
// session gets its own BridgeRouter: acquire() points it at the caller's handler.
import type { BridgeRouter, ReplAcquireOptions, ReplFactory } from './replFactory';
import type { BridgeHandler, ReplSession } from './replTypes';

export interface ReplPoolOptions {
  /** Starts a session whose bridge calls go to `bridge`; `stop` fires when the pool shuts down, abandoning a start. */
  create(bridge: BridgeHandler, stop: AbortSignal): Promise<ReplSession>;
  createBridgeRouter(): BridgeRouter;
  /** Never-used sessions kept ready (default 1; 0 starts one per acquire). */
  spares?: number;
  /** A spare that failed to start; the next acquire() starts its own and reports the error to its run. */
  onSpareError?: (error: unknown) => void;
  /**
   * Refill the spares only from the second acquire() on: a command that runs one run (`rlm ask`) has
   * its REPL started at once, but keeps no idle process beside it unless the run starts child runs.
   */
  refillAfterFirst?: boolean;
}

interface Routed {
  session: ReplSession;
  router: BridgeRouter;
  unroute?: () => void;
}

export class ReplPool implements ReplFactory {
  private readonly spares: Array<Promise<Routed>> = [];
  private readonly leased = new Map<ReplSession, Routed>();
  private disposed = false;
  private wanted: number;
  private acquired = 0;
  private readonly stopping = new AbortController();

  constructor(private readonly options: ReplPoolOptions) {
    this.wanted = options.spares ?? 1;
  }

  private start(): Promise<Routed> {
    const router = this.options.createBridgeRouter();
    return this.options.create(router.handler, this.stopping.signal).then((session) => ({ session, router }));
  }

  /** Starts spares up to the wanted count (at least one), so the next acquire() finds one ready. */
  prewarm(onError?: (error: unknown) => void): void {
    if (this.disposed) return;
    const target = Math.max(1, this.wanted);
    while (this.spares.length < target) {
      const starting = this.start();
      starting.catch((error: unknown) => {
        const at = this.spares.indexOf(starting);
        if (at >= 0) this.spares.splice(at, 1);
        (onError ?? this.options.onSpareError)?.(error);
      });
      this.spares.push(starting);
    }
  }

  async acquire(options: ReplAcquireOptions = {}): Promise<ReplSession> {
    if (this.disposed) throw new Error('the REPL pool is shut down');
    options.signal?.throwIfAborted();
    const spare = this.spares.shift();
    this.acquired++;
    const refill = this.wanted > 0 && (!this.options.refillAfterFirst || this.acquired > 1);
    // Started before awaiting this one's start, so a child run's replacement overlaps with it.
    if (refill && spare) this.prewarm();
    const routed = spare ? await spare.catch(() => this.start()) : await this.start();
    if (refill) this.prewarm();
    if (this.disposed || options.signal?.aborted) {
      await routed.session.close();
      options.signal?.throwIfAborted();
      throw new Error('the REPL pool is shut down');
    }
    if (options.bridge) routed.unroute = routed.router.route(options.bridge);
    this.leased.set(routed.session, routed);
    return routed.session;
  }

  /** The router of a leased session: pass it as RunOptions.sessionBridge when a follow-up reuses it. */
  routerOf(session: ReplSession): BridgeRouter | undefined {
    return this.leased.get(session)?.router;
  }

  /** Ends a session: its process is killed, never handed to another run. */
  async release(session: ReplSession): Promise<void> {
    const routed = this.leased.get(session);
    this.leased.delete(session);
    routed?.unroute?.();
    await session.close();
  }

  get leasedCount(): number {
    return this.leased.size;
  }

  get spareCount(): number {
    return this.spares.length;
  }

  /** Resolves once every spare started so far has finished starting (or failed). */
  async sparesReady(): Promise<void> {
    await Promise.all(this.spares.map((s) => s.then(() => undefined, () => undefined)));
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    // Spares still starting are killed now rather than waited for.
    this.stopping.abort();
    const spares = this.spares.splice(0);
    const leased = [...this.leased.keys()];
    this.leased.clear();
    await Promise.all([
      ...leased.map((s) => s.close().catch(() => undefined)),
      ...spares.map((s) => s.then((r) => r.session.close(), () => undefined)),
    ]);
  }
}
