// How runs get REPL sessions: the factory that hands one out per run, and the router that points a
// long-lived session's bridge at whichever run uses it now. The REPL side declares these (the pool
// implements them) and the loop consumes them, so the arrow runs one way: core/loop -> core/repl.
import type { BridgeHandler, ReplSession } from './replTypes';

/** Points a long-lived session's bridge at whichever run is using the session now. */
export interface BridgeRouter {
  readonly handler: BridgeHandler;
  /** Routes calls to `target` until the returned function is called. */
  route(target: BridgeHandler): () => void;
}

export interface ReplAcquireOptions {
  bridge?: BridgeHandler;
  signal?: AbortSignal;
}

/**
 * Hands out REPL sessions: one per run, and one per child run (a parked parent cannot run a child's
 * cells). Every session it hands out is one no code has touched, and release() kills it: no REPL
 * serves two runs (docs/security.md, layer 4). Follow-ups keep theirs by passing RunOptions.session.
 */
export interface ReplFactory {
  /** `bridge` answers this run's llm_query / rlm_query calls from Python (the loop always passes one). */
  acquire(options?: ReplAcquireOptions): Promise<ReplSession>;
  /** Ends the session: its process is killed. */
  release(session: ReplSession): Promise<void>;
}

/** Routes a long-lived session's bridge calls to the run using it now (see RunOptions.sessionBridge). */
export function createBridgeRouter(): BridgeRouter {
  let target: BridgeHandler | undefined;
  return {
    handler: (call, signal) => {
      if (!target) return Promise.resolve(call.prompts.map(() => '[ERROR] no run is using this REPL session'));
      return target(call, signal);
    },
    route(next) {
      target = next;
      return () => {
        if (target === next) target = undefined;
      };
    },
  };
}
