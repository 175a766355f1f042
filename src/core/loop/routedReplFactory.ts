// Gives each pooled REPL session its own bridge router, so that whichever run acquires a session
// gets that session's llm_query / rlm_query calls. Sessions are created with a fixed bridge handler,
// while a pool hands one session to many runs over time; the router bridges the two.
import type { BridgeHandler, ReplSession } from '../repl/replTypes';
import type { BridgeRouter, ReplAcquireOptions, ReplFactory } from './loopTypes';
import { createBridgeRouter } from './rlmRun';

export interface RoutedReplFactory extends ReplFactory {
  /** The router of a session this factory made: pass it as RunOptions.sessionBridge when reusing the session. */
  routerOf(session: ReplSession): BridgeRouter | undefined;
}

/**
 * `startSession` creates a session whose bridge calls go to `bridge`; `makePool` builds the pool
 * (e.g. `(create) => new ReplPool({ session, create })`) around the routed creator. With
 * `prewarmOnRelease`, a fresh session starts in the background whenever one is given back and closed.
 */
export function createRoutedReplFactory(
  startSession: (bridge: BridgeHandler) => Promise<ReplSession>,
  makePool: (create: () => Promise<ReplSession>) => ReplFactory,
  options: { prewarmOnRelease?: boolean } = {},
): RoutedReplFactory {
  const routers = new WeakMap<ReplSession, BridgeRouter>();
  const unroutes = new WeakMap<ReplSession, () => void>();
  const pool = makePool(async () => {
    const router = createBridgeRouter();
    const session = await startSession(router.handler);
    routers.set(session, router);
    return session;
  });
  return {
    async acquire(options?: ReplAcquireOptions): Promise<ReplSession> {
      const session = await pool.acquire(options);
      const router = routers.get(session);
      if (options?.bridge && router) unroutes.set(session, router.route(options.bridge));
      return session;
    },
    async release(session: ReplSession, reusable: boolean): Promise<void> {
      unroutes.get(session)?.();
      unroutes.delete(session);
      await pool.release(session, reusable);
      // A reusable session stays warm in the pool (reset for the next run); one that was closed is
      // replaced now when more runs are coming. A one-shot CLI run would only wait for it.
      if (!reusable && options.prewarmOnRelease) prewarmable(pool)?.prewarm();
    },
    routerOf: (session) => routers.get(session),
  };
}

function prewarmable(pool: ReplFactory): { prewarm(): void } | undefined {
  const candidate = pool as ReplFactory & { prewarm?: unknown };
  return typeof candidate.prewarm === 'function' ? (candidate as { prewarm(): void }) : undefined;
}
