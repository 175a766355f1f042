// The host's end of the bridge pipe: length-prefixed JSON frames straight to and from the REPL worker,
// which writes a call and then blocks reading the reply (src/worker/bridgePipeSync.ts). The host keeps
// the one call in flight, so an interrupt can cancel it once the child has set the interrupt buffer,
// and holds a call until the output printed before it has arrived by the other route.
import type { Duplex } from 'node:stream';
import { checkBridgeFrame, MAX_BRIDGE_FRAME_BYTES } from './childMessages';
import { ChannelViolation, encodeFrame, FrameReader, parseJsonBody } from './frameCodec';
import type { BridgeReply, BridgeReplyFrame, BridgeRequestFrame } from './replProtocol';
import type { BridgeCall, ReplCall } from './replTypes';
import { REPL_CALL } from './childMessages';

/** The shape the dispatcher relies on (childMessages.ts declares it); the call comes from code the model wrote. */
export function isBridgeCall(value: unknown): value is BridgeCall {
  if (REPL_CALL(value)) return false;
  const call = value as ReplCall;
  if (call.kind === 'llm_query') return true;
  return call.kind === 'rlm_query' && call.contexts.length === call.prompts.length;
}

interface BridgePipeHandlers {
  call(callId: number, call: ReplCall, reply: (reply: BridgeReply) => void): void;
  /** A frame that is not a call, or a call out of turn: the REPL side is broken or hostile. */
  malformed(error: ChannelViolation): void;
}

export class BridgePipe {
  private readonly reader = new FrameReader('bridge pipe', () => MAX_BRIDGE_FRAME_BYTES);
  /** The call the worker is blocked on, if any, and the way it came (the pipe, or relayed over the channel). */
  private pending: number | undefined;
  private pendingVia: 'pipe' | 'relay' = 'pipe';
  private greeted = false;
  /** After a protocol break nothing more is read. */
  private broken = false;
  /** `output` messages that have arrived over the channel from this child. */
  private outputs = 0;
  /** A call that waits for output printed before it (at most one: the worker blocks on each call). */
  private held: { callId: number; afterOutputs: number; call: ReplCall } | undefined;

  constructor(
    private readonly socket: Duplex,
    private readonly handlers: BridgePipeHandlers,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => undefined); // surfaces as the child's exit
  }

  /** After the child confirmed the interrupt buffer is set: releases the worker from a call still in flight. */
  cancelPending(): void {
    if (this.pending === undefined) return;
    const callId = this.pending;
    this.pending = undefined;
    this.held = undefined;
    // A relayed call is cancelled by the REPL process itself, when it applies the interrupt.
    if (this.pendingVia === 'pipe') this.write({ callId, cancelled: true });
  }

  /**
   * A call relayed over the channel: the worker blocks on each call, so one that comes while another
   * is in flight (by either route) is a protocol break. Returns whether the call may be answered.
   */
  takeRelayed(callId: number): boolean {
    if (this.pending !== undefined) {
      this.fail(new ChannelViolation('channel', `sub-call ${callId} made while sub-call ${this.pending} was in flight`));
      return false;
    }
    this.pending = callId;
    this.pendingVia = 'relay';
    return true;
  }

  /** The answer to a relayed call is about to go: false when it was cancelled meanwhile. */
  settleRelayed(callId: number): boolean {
    if (this.pending !== callId || this.pendingVia !== 'relay') return false;
    this.pending = undefined;
    return true;
  }

  /** One `output` message from the child has been handled; a call waiting for it may go now. */
  outputArrived(): void {
    this.outputs++;
    if (this.held && this.outputs >= this.held.afterOutputs) this.dispatch(this.held);
  }

  private receive(chunk: Buffer): void {
    if (this.broken) return;
    const frames: BridgeRequestFrame[] = [];
    try {
      this.reader.push(chunk, (body) => frames.push(checkBridgeFrame(parseJsonBody('bridge pipe', body))));
    } catch (error) {
      for (const frame of frames) this.onFrame(frame);
      this.fail(error instanceof ChannelViolation ? error : new ChannelViolation('bridge pipe', `unreadable frame (${String(error).slice(0, 200)})`));
      return;
    }
    for (const frame of frames) this.onFrame(frame);
  }

  private fail(violation: ChannelViolation): void {
    if (this.broken) return;
    this.broken = true;
    this.held = undefined;
    this.pending = undefined;
    this.handlers.malformed(violation);
  }

  private onFrame(frame: BridgeRequestFrame): void {
    if (this.broken) return;
    if ('hello' in frame) {
      // Answered once: each echo is bytes the host must hold until the process reads them, so a
      // process repeating `hello` without reading could grow the host's memory.
      if (this.greeted) return this.fail(new ChannelViolation('bridge pipe', 'a second hello'));
      this.greeted = true;
      this.write({ callId: 0, hello: true });
      return;
    }
    if (this.pending !== undefined) {
      this.fail(new ChannelViolation('bridge pipe', `sub-call ${frame.callId} made while sub-call ${this.pending} was in flight`));
      return;
    }
    this.pending = frame.callId;
    this.pendingVia = 'pipe';
    if (this.outputs >= frame.afterOutputs) this.dispatch(frame);
    else this.held = frame;
  }

  private dispatch({ callId, call }: { callId: number; call: ReplCall }): void {
    this.held = undefined;
    this.handlers.call(callId, call, (reply) => {
      if (this.pending !== callId || this.pendingVia !== 'pipe') return; // cancelled meanwhile
      this.pending = undefined;
      this.write(reply);
    });
  }

  private write(frame: BridgeReplyFrame): void {
    if (!this.socket.destroyed) this.socket.write(encodeFrame(frame));
  }
}
