// Host side of the synchronous bridge: runs the loop's BridgeHandler for each call Python makes, with an
// AbortSignal that interrupt() and timeouts trip, and checks the answer's shape before replying.
import { errorKindOf } from '../errorKind';
import type { ErrorKind } from '../errorKind';
import type { BridgeReply } from './replProtocol';
import { isBridgeCall } from './bridgePipe';
import { isContextCall } from './lazyContextHost';
import type { BridgeHandler, ContextCall, ReplCall } from './replTypes';

export type BridgeReplySender = (reply: BridgeReply) => void;

/** Answers a lazy context's reads and searches with one JSON text; absent when nothing lazy is bound. */
type ContextHandler = (call: ContextCall, signal: AbortSignal) => Promise<string>;

export class BridgeDispatcher {
  private readonly inFlight = new Map<number, AbortController>();

  constructor(
    private readonly handler: BridgeHandler,
    private readonly contextHandler: () => ContextHandler | undefined = () => undefined,
  ) {}

  get pending(): number {
    return this.inFlight.size;
  }

  dispatch(callId: number, call: ReplCall, reply: BridgeReplySender): void {
    // Checked here whichever way the call came (the bridge pipe checks too; the relay does not).
    if (!isBridgeCall(call) && !isContextCall(call)) {
      reply({ callId, ok: false, message: 'repl: a malformed call reached the host and was refused' });
      return;
    }
    const controller = new AbortController();
    this.inFlight.set(callId, controller);
    const expected = isContextCall(call) ? 1 : call.prompts.length;
    let answer: Promise<unknown>;
    try {
      if (isContextCall(call)) {
        const serve = this.contextHandler();
        answer = serve ? serve(call, controller.signal).then((text) => [text]) : Promise.reject(new Error('no lazy context is bound in this REPL'));
      } else {
        answer = Promise.resolve(this.handler(call, controller.signal));
      }
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
