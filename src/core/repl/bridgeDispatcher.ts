// Host side of the synchronous bridge: runs the loop's BridgeHandler for each call Python makes, with an
// AbortSignal that interrupt() and timeouts trip, and checks the answer's shape before replying.
import { errorKindOf } from '../errorKind';
import type { ErrorKind } from '../errorKind';
import type { BridgeReply } from './replProtocol';
import type { BridgeCall, BridgeHandler } from './replTypes';

export type BridgeReplySender = (reply: BridgeReply) => void;

export class BridgeDispatcher {
  private readonly inFlight = new Map<number, AbortController>();

  constructor(private readonly handler: BridgeHandler) {}

  get pending(): number {
    return this.inFlight.size;
  }

  dispatch(callId: number, call: BridgeCall, reply: BridgeReplySender): void {
    const controller = new AbortController();
    this.inFlight.set(callId, controller);
    const expected = call.prompts.length;
    let answer: Promise<unknown>;
    try {
      answer = Promise.resolve(this.handler(call, controller.signal));
    } catch (err) {
      answer = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    answer
      .then(
        (result) => {
          if (controller.signal.aborted) return;
          if (!Array.isArray(result) || result.length !== expected || result.some((r) => typeof r !== 'string')) {
            reply({ callId, ok: false, message: `internal: the host returned a malformed answer for ${expected} prompt(s)` });
            return;
          }
          reply({ callId, ok: true, result });
        },
        (err: unknown) => {
          if (controller.signal.aborted) return;
          // Python prefixes "[ERROR] ": the item reads "[ERROR] <kind>: <message>", as per-item failures do.
          reply({ callId, ok: false, message: `${errorKindOf(err)}: ${err instanceof Error ? err.message : String(err)}` });
        },
      )
      .finally(() => this.inFlight.delete(callId));
  }

  /** Aborts every call in flight (interrupt, timeout, or the REPL going away), saying why. */
  abortAll(reason: string): void {
    for (const controller of this.inFlight.values()) controller.abort(new SubCallAbortedError(reason));
    this.inFlight.clear();
  }
}

/** Why a sub-call (and a child run it started) was stopped from the REPL side: never a user's Stop. */
export class SubCallAbortedError extends Error {
  override readonly name = 'SubCallAbortedError';
  /** A time limit, the user's Stop of the cell, or the REPL going away. */
  readonly errorKind: ErrorKind;
  constructor(readonly reason: string) {
    super(`stopped because ${reason}`);
    this.errorKind = /time limit|hard timeout/.test(reason) ? 'timeout' : /stopped/.test(reason) ? 'cancelled' : 'repl';
  }
}
