// The synchronous functions Python calls out to (the `host` object of the prelude). A bridge call posts
// the request to the child's main thread, then parks this worker on Atomics.wait until the main thread
// either posts the reply on the dedicated bridge port (state REPLIED) or cancels it on an interrupt
// (state CANCELLED). Replies are taken with receiveMessageOnPort, so they can be of any size and the
// blocked event loop is never needed.
import { receiveMessageOnPort } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import type { BridgeCall } from '../core/repl/replTypes';
import type { BridgeReply, WorkerToChild } from '../core/repl/replProtocol';
import { BRIDGE_CANCELLED, BRIDGE_IDLE, BRIDGE_REPLIED } from '../core/repl/replProtocol';

export interface SyncHostDeps {
  post(message: WorkerToChild): void;
  bridgePort: MessagePort;
  bridgeState: Int32Array;
  interruptState: Int32Array;
}

export interface SyncHost {
  bridge(callJson: string): string;
  emit(stream: string, text: string): void;
  /** Sleeps up to `ms`; returns 1 when an interrupt cut the sleep short (Python then raises). */
  sleep(ms: number): number;
}

export function createSyncHost(deps: SyncHostDeps): SyncHost {
  let nextCallId = 0;

  const consumeInterrupt = (): void => {
    // Python raises KeyboardInterrupt itself; clearing the buffer avoids a second one right after.
    Atomics.store(deps.interruptState, 0, 0);
  };

  const takeReply = (callId: number): BridgeReply | undefined => {
    // Skip replies to calls that were cancelled earlier but answered late.
    for (;;) {
      const received = receiveMessageOnPort(deps.bridgePort);
      if (!received) return undefined;
      const reply = received.message as BridgeReply;
      if (reply.callId === callId) return reply;
    }
  };

  return {
    bridge(callJson: string): string {
      const call = JSON.parse(callJson) as BridgeCall;
      const callId = ++nextCallId;
      Atomics.store(deps.bridgeState, 0, BRIDGE_IDLE);
      deps.post({ type: 'bridgeCall', callId, call });
      for (;;) {
        Atomics.wait(deps.bridgeState, 0, BRIDGE_IDLE);
        const state = Atomics.load(deps.bridgeState, 0);
        if (state === BRIDGE_CANCELLED) {
          consumeInterrupt();
          return JSON.stringify({ interrupted: true });
        }
        if (state === BRIDGE_REPLIED) {
          const reply = takeReply(callId);
          if (reply) return JSON.stringify(reply.ok ? { ok: true, result: reply.result } : { ok: false, message: reply.message });
          Atomics.store(deps.bridgeState, 0, BRIDGE_IDLE);
        }
      }
    },
    emit(stream: string, text: string): void {
      deps.post({ type: 'output', stream: stream === 'stderr' ? 'stderr' : 'stdout', text });
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
