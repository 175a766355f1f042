// A ReplFactory for the extension: every session is created with its own bridge router, so a warm
// session kept between runs answers each run's sub-calls through the handler that run passed to
// acquire(). One idle session is kept warm; the rest are closed on release. No `vscode` import.
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
  private readonly leased = new Map<ReplSession, Routed>();
  private disposed = false;

  constructor(private readonly deps: RoutedReplPoolDeps) {}

  async acquire(options: ReplAcquireOptions = {}): Promise<ReplSession> {
    if (this.disposed) throw new Error('The REPL pool was shut down (the extension is deactivating).');
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

  get leasedCount(): number {
    return this.leased.size;
  }

  async dispose(): Promise<void> {
    this.disposed = true;
    const all = [...this.leased.values(), ...(this.idle ? [this.idle] : [])];
    this.leased.clear();
    this.idle = undefined;
    await Promise.all(all.map((r) => r.session.close().catch(() => undefined)));
  }
}
