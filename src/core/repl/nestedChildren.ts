// The child runs a session nests in its own interpreter (issue 33), one at a time: opening one over the
// parent's rlm_query, the ops it sends through the parent's process, and what happens to it when that
// process is lost. The session (replSession.ts) lends itself through NestingParent; the child's own
// session is nestedSession.ts.
import type { ReplChild } from './replChild';
import { ReplClosedError, ReplCrashedError } from './replErrors';
import type { NestedDone } from './replProtocol';
import type { BridgeReplySender } from './bridgeDispatcher';
import { NestedReplSession } from './nestedSession';
import type { NestedHost, NestedSettings } from './nestedSession';
import type { BridgeHandler, CellResult, ReplCall, ReplSession } from './replTypes';

type LostReason = NonNullable<CellResult['restarted']>;

/** What nesting a child needs from the parent session: its process now, and what the child inherits. */
export interface NestingParent extends NestedSettings {
  /** The parent's REPL process now; another one (or none) once the one a child shares is lost. */
  currentChild(): ReplChild | undefined;
  /** Why the parent's process was lost, when it was. */
  lostReason(): LostReason['reason'] | undefined;
}

export class NestedChildren {
  /** The child nested now (at most one), and how many have been. */
  private nested?: NestedReplSession;
  private count = 0;
  /** Fails the nested op in flight, if any, when the process is lost. */
  private opFailed?: (error: Error) => void;
  /** Why a child had the process killed (reported instead of "the process died"). */
  private killedFor?: LostReason;

  constructor(private readonly parent: NestingParent) {}

  /**
   * A session for a child run in `child`, the parent's process, whose cell is blocked in the rlm_query
   * `callId`; undefined while another child is nested. `bridge` answers the child's own sub-calls.
   */
  open(child: ReplChild, callId: number, bridge: BridgeHandler): ReplSession | undefined {
    if (this.nested) return undefined;
    const parent = this.parent;
    const host: NestedHost = {
      protections: parent.protections,
      startup: parent.startup,
      captureMaxChars: parent.captureMaxChars,
      contextLimitBytes: parent.contextLimitBytes,
      defaultTimeoutMs: parent.defaultTimeoutMs,
      hardTimeoutGraceMs: parent.hardTimeoutGraceMs,
      op: (op, output) =>
        new Promise<NestedDone>((resolve, reject) => {
          if (parent.currentChild() !== child) return reject(new ReplCrashedError(parent.lostReason() ?? 'crash', 'the REPL process the child run shared with its parent is gone'));
          if (!child.nestedOp(callId, op, { output, done: resolve })) return reject(new ReplClosedError(`${op.op} in a child run: the parent's rlm_query is no longer waiting`));
          this.opFailed = reject;
        }),
      interrupt: () => child.interrupt(1),
      kill: (why) => {
        this.killedFor = why;
        child.kill();
      },
      released: (session) => {
        if (this.nested === session) this.nested = undefined;
      },
    };
    const session = new NestedReplSession(host, ++this.count, bridge);
    this.nested = session;
    return session;
  }

  /** A sub-call one level deeper: from the cell of the nested child, answered by its own session. */
  dispatchCall(callId: number, call: ReplCall, reply: BridgeReplySender): string | undefined {
    return this.nested ? this.nested.dispatchCall(callId, call, reply) : 'a nested sub-call while no child run was nested';
  }

  /** The parent's process is gone (or broke the protocol): the op in flight and the child fail with `error`. */
  lost(error: Error): void {
    this.opFailed?.(error);
    this.nested?.lost(error);
  }

  /** Why a child had the process killed, once: the exit that follows is that, not a crash. */
  takeKillReason(): LostReason | undefined {
    const why = this.killedFor;
    this.killedFor = undefined;
    return why;
  }
}
