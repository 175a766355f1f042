// A ReplFactory for the extension: every session is created with its own bridge router, so a warm
// session kept between runs answers each run's sub-calls through the handler that run passed to
// acquire(). One idle session is kept warm; the rest are closed on release. prewarm() starts that one
// ahead of need (a REPL takes 0.6–3 s to start), so it loads while the user types the question.
// No `vscode` import.
import type { BridgeRouter, ReplAcquireOptions } from '../../core/loop/loopTypes';
import type { BridgeHandler, ReplSession } from '../../core/repl/replTypes';
import type { ReplPool } from './engineTypes';

export interface RoutedReplPoolDeps {
  createSession: (bridge: BridgeHandler) => Promise<ReplSession>;
  createBridgeRouter: () => BridgeRouter;
}

interface Routed {
  session: ReplSession;
  router: BridgeRouter;
  unroute?: () => void;
}

export class RoutedReplPool implements ReplPool {
  private idle: Routed | undefined;
  /** A session being started by prewarm(), not yet idle. */
  private warming: Promise<Routed | undefined> | undefined;
  private readonly leased = new Map<ReplSession, Routed>();
  private disposed = false;

  constructor(private readonly deps: RoutedReplPoolDeps) {}

  async acquire(options: ReplAcquireOptions = {}): Promise<ReplSession> {
    if (this.disposed) throw new Error('The REPL pool was shut down (the extension is deactivating).');
    if (!this.idle && this.warming) await this.warming;
    let routed = this.idle;
    this.idle = undefined;
    if (!routed) {
      const router = this.deps.createBridgeRouter();
      routed = { session: await this.deps.createSession(router.handler), router };
    }
    if (options.bridge) routed.unroute = routed.router.route(options.bridge);
    this.leased.set(routed.session, routed);
    return routed.session;
  }

  async release(session: ReplSession, reusable: boolean): Promise<void> {
    const routed = this.leased.get(session);
    this.leased.delete(session);
    routed?.unroute?.();
    if (!routed || !reusable || this.disposed) {
      await session.close();
      return;
    }
    const previous = this.idle;
    this.idle = { session, router: routed.router };
    if (previous) await previous.session.close();
  }

  /**
   * Starts a session in the background so the next acquire() finds it warm. A no-op when one is idle or
   * already starting. A failed start is only reported through `onError`: the next acquire() starts
   * its own session and surfaces the error to the run.
   */
  prewarm(onError: (error: unknown) => void = () => {}): void {
    if (this.disposed || this.idle || this.warming) return;
    const router = this.deps.createBridgeRouter();
    this.warming = this.deps
      .createSession(router.handler)
      .then(async (session): Promise<Routed | undefined> => {
        if (this.disposed || this.idle) {
          await session.close();
          return undefined;
        }
        this.idle = { session, router };
        return this.idle;
      })
      .catch((error: unknown) => {
        onError(error);
        return undefined;
      })
      .finally(() => {
        this.warming = undefined;
      });
  }

  get leasedCount(): number {
    return this.leased.size;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    await this.warming;
    const all = [...this.leased.values(), ...(this.idle ? [this.idle] : [])];
    this.leased.clear();
    this.idle = undefined;
    await Promise.all(all.map((r) => r.session.close().catch(() => undefined)));
  }
}
