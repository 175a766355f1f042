// The synchronous work behind the channel device's `B` and `S` requests (pythonChannel.ts). A bridge call goes
// one of two ways (BridgeTransportKind):
// - pipe: the call is written to the bridge pipe and this thread blocks reading the host's reply frame
//   (bridgePipeSync.ts); an interrupt arrives as a `cancelled` frame.
// - relay: the call is posted to the child's main thread, and this worker parks on Atomics.wait until
//   the main thread either posts the reply on the dedicated bridge port (state REPLIED) or cancels it on
//   an interrupt (state CANCELLED). Replies are taken with receiveMessageOnPort, so they can be of any
//   size and the blocked event loop is never needed.
// Either way the reply handed to Python is JSON with `ok` and `result` or `message`, or `interrupted`.
import { receiveMessageOnPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { ReplCall } from '../core/repl/replTypes';
import type { BridgeReply, NestedDone, NestedOp, NestedReportFrame, WorkerToChild } from '../core/repl/replProtocol';
import { BRIDGE_CANCELLED, BRIDGE_IDLE, BRIDGE_REPLIED } from '../core/repl/replProtocol';
import type { SyncFrameIo } from './bridgePipeSync';

interface RelayDeps {
  post(message: WorkerToChild): void;
  bridgePort: MessagePort;
  bridgeState: Int32Array;
}

export interface SyncHostDeps {
  post(message: WorkerToChild): void;
  /** How many `output` messages the worker has posted (from Python or Pyodide), for ordering piped calls. */
  outputsPosted(): number;
  interruptState: Int32Array;
  /** The bridge pipe, when the start-up probe found it usable; otherwise calls are relayed. */
  pipe?: SyncFrameIo;
  relay: RelayDeps;
  /** Child runs nested in this interpreter (pipe transport only); set once the prelude is up. */
  nested?: NestedRunner;
}

const INTERRUPTED = JSON.stringify({ interrupted: true });

/**
 * Runs a nested op (a child run's bind, cell or close, in this interpreter) while the worker is blocked
 * on the parent's call; `output` sends the op's live output to the host ahead of its outcome.
 */
export interface NestedRunner {
  run(callId: number, op: NestedOp, output: (stream: 'stdout' | 'stderr', text: string) => void): NestedDone;
  /** Call `callId` is over (answered or cancelled): children still open in it are closed. */
  end(callId: number): void;
}

/**
 * One call over the pipe: the reply frame's own JSON text goes to Python as it is. Until it comes, the
 * host may send ops for a child run nested in this interpreter (issue 33); each is run and answered
 * here, and a child cell's own calls come back through this function, one level deeper.
 */
function pipeRoundTrip(io: SyncFrameIo, callId: number, afterOutputs: number, callJson: string, nested: NestedRunner | undefined): string | 'cancelled' {
  io.write(`{"callId":${callId},"afterOutputs":${afterOutputs},"call":${callJson}}`);
  try {
    for (;;) {
      const body = io.read();
      const frame = JSON.parse(body) as { callId?: number; cancelled?: boolean; nested?: NestedOp };
      // Frames for an earlier call (answered after it was cancelled) are skipped.
      if (frame.callId !== callId) continue;
      if (frame.nested && nested) {
        const { child } = frame.nested;
        const output = (stream: 'stdout' | 'stderr', text: string): void => io.write(JSON.stringify({ callId, nestedOutput: { child, stream, text } } satisfies NestedReportFrame));
        io.write(JSON.stringify({ callId, nestedDone: nested.run(callId, frame.nested, output) } satisfies NestedReportFrame));
        continue;
      }
      return frame.cancelled ? 'cancelled' : body;
    }
  } finally {
    nested?.end(callId);
  }
}

function relayRoundTrip(deps: RelayDeps, callId: number, call: ReplCall): string | 'cancelled' {
  const takeReply = (): BridgeReply | undefined => {
    // Skip replies to calls that were cancelled earlier but answered late.
    for (;;) {
      const received = receiveMessageOnPort(deps.bridgePort);
      if (!received) return undefined;
      const reply = received.message as BridgeReply;
      if (reply.callId === callId) return reply;
    }
  };
  Atomics.store(deps.bridgeState, 0, BRIDGE_IDLE);
  deps.post({ type: 'bridgeCall', callId, call });
  for (;;) {
    Atomics.wait(deps.bridgeState, 0, BRIDGE_IDLE);
    const state = Atomics.load(deps.bridgeState, 0);
    if (state === BRIDGE_CANCELLED) return 'cancelled';
    if (state === BRIDGE_REPLIED) {
      const reply = takeReply();
      if (reply) return JSON.stringify(reply.ok ? { ok: true, result: reply.result } : { ok: false, message: reply.message });
      Atomics.store(deps.bridgeState, 0, BRIDGE_IDLE);
    }
  }
}

interface SyncHost {
  bridge(callJson: string): string;
  /** Sleeps up to `ms`; returns 1 when an interrupt cut the sleep short (Python then raises). */
  sleep(ms: number): number;
}

export function createSyncHost(deps: SyncHostDeps): SyncHost {
  let nextCallId = 0;

  const consumeInterrupt = (): void => {
    // Python raises KeyboardInterrupt itself; clearing the buffer avoids a second one right after.
    Atomics.store(deps.interruptState, 0, 0);
  };

  return {
    bridge(callJson: string): string {
      const callId = ++nextCallId;
      const outcome = deps.pipe ? pipeRoundTrip(deps.pipe, callId, deps.outputsPosted(), callJson, deps.nested) : relayRoundTrip(deps.relay, callId, JSON.parse(callJson) as ReplCall);
      if (outcome !== 'cancelled') return outcome;
      consumeInterrupt();
      return INTERRUPTED;
    },
    sleep(ms: number): number {
      if (Atomics.load(deps.interruptState, 0) === 0) Atomics.wait(deps.interruptState, 0, 0, Math.max(0, ms));
      if (Atomics.load(deps.interruptState, 0) !== 0) {
        consumeInterrupt();
        return 1;
      }
      return 0;
    },
  };
}
