// The host's end of the bridge pipe: length-prefixed JSON frames straight to and from the REPL worker,
// which writes a call and then blocks reading the reply (src/worker/bridgePipeSync.ts). The host keeps
// the calls in flight (one, or two while a child run's cell runs nested in its parent's rlm_query), so an
// interrupt can cancel them once the child has set the interrupt buffer, and holds a call until the
// output printed before it has arrived by the other route. A child run's ops (bind, cell, close) go to
// the worker on the call it is nested in, and come back as that call's nested output and outcome.
import type { Duplex } from 'node:stream';
import { checkBridgeFrame, MAX_BRIDGE_FRAME_BYTES } from './childMessages';
import { ChannelViolation, encodeFrame, FrameReader, parseJsonBody } from './frameCodec';
import type { BridgeReply, BridgeReplyFrame, BridgeRequestFrame, NestedDone, NestedOp, NestedReportFrame } from './replProtocol';
import type { BridgeCall, ReplCall } from './replTypes';
import { REPL_CALL } from './childMessages';

/** The run's call and, above it, the calls of one child run nested in it (grandchildren use their own process). */
const MAX_NESTED_DEPTH = 2;

/** The shape the dispatcher relies on (childMessages.ts declares it); the call comes from code the model wrote. */
export function isBridgeCall(value: unknown): value is BridgeCall {
  if (REPL_CALL(value)) return false;
  const call = value as ReplCall;
  if (call.kind === 'llm_query') return true;
  return call.kind === 'rlm_query' && call.contexts.length === call.prompts.length;
}

interface BridgePipeHandlers {
  /** `depth`: 0 for a call from the run's own cell, 1 for one from a child run's cell nested in it. */
  call(callId: number, call: ReplCall, reply: (reply: BridgeReply) => void, depth: number): void;
  /** A frame that is not a call, or a call out of turn: the REPL side is broken or hostile. */
  malformed(error: ChannelViolation): void;
}

/** What the host is told of a nested op while it runs: its output, then how it ended. */
export interface NestedOpHandlers {
  output(stream: 'stdout' | 'stderr', text: string): void;
  done(outcome: NestedDone): void;
}

/** A call the worker is blocked on (the innermost is last), and what waits to be written for it. */
interface Flight {
  callId: number;
  via: 'pipe' | 'relay';
  /** An op on a child run nested in this call (issue 33), in flight: the worker runs it, not the call. */
  nested?: { op: NestedOp; handlers: NestedOpHandlers };
  /** A reply or a cancel that came while a nested op ran: written once the worker reads this call again. */
  deferred?: BridgeReplyFrame;
}

export class BridgePipe {
  private readonly reader = new FrameReader('bridge pipe', () => MAX_BRIDGE_FRAME_BYTES);
  /**
   * The calls the worker is blocked on, outermost first: one, or while a child run's cell runs nested
   * in the outer one (issue 33), the calls that cell makes on top of it.
   */
  private readonly stack: Flight[] = [];
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
    /** The capture limit per stream and cell: a nested cell's output frames are checked against it. */
    private readonly captureMaxChars = MAX_BRIDGE_FRAME_BYTES,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => undefined); // surfaces as the child's exit
  }

  private get top(): Flight | undefined {
    return this.stack[this.stack.length - 1];
  }

  /**
   * After the child confirmed the interrupt buffer is set: releases the worker from the calls in flight
   * from `depth` up (0: all; 1: those a nested child's cell made). A call whose nested op still runs is
   * cancelled once that op has ended, as the worker reads it only then.
   */
  cancelPending(depth = 0): void {
    const cancelled = this.stack.slice(depth);
    if (!cancelled.length) return;
    if (this.held && cancelled.some((f) => f.callId === this.held!.callId)) this.held = undefined;
    for (const flight of cancelled) flight.deferred = { callId: flight.callId, cancelled: true };
    this.flush();
  }

  /** Writes what waits for the innermost call, if the worker is reading it now; repeats outward. */
  private flush(): void {
    for (let top = this.top; top?.deferred && !top.nested; top = this.top) {
      this.stack.pop();
      // A relayed call is cancelled by the REPL process itself, when it applies the interrupt.
      if (top.via === 'pipe') this.write(top.deferred);
    }
  }

  /** Calls in flight: 1 while the run's cell waits on one, 2 while a nested child's cell does too. */
  get depth(): number {
    return this.stack.length;
  }

  /**
   * Sends an op for a child run nested in call `callId` (the innermost call, waiting on nothing else).
   * Returns false when that is not so; the op is then not sent.
   */
  nestedOp(callId: number, op: NestedOp, handlers: NestedOpHandlers): boolean {
    const top = this.top;
    if (this.broken || !top || top.callId !== callId || top.via !== 'pipe' || top.nested || top.deferred || this.held) return false;
    top.nested = { op, handlers };
    this.write({ callId, nested: op });
    return true;
  }

  /**
   * A call relayed over the channel: the worker blocks on each call, so one that comes while another
   * is in flight (by either route) is a protocol break. Returns whether the call may be answered.
   */
  takeRelayed(callId: number): boolean {
    if (this.top) {
      this.fail(new ChannelViolation('channel', `sub-call ${callId} made while sub-call ${this.top.callId} was in flight`));
      return false;
    }
    this.stack.push({ callId, via: 'relay' });
    return true;
  }

  /** The answer to a relayed call is about to go: false when it was cancelled meanwhile. */
  settleRelayed(callId: number): boolean {
    const top = this.top;
    if (!top || top.callId !== callId || top.via !== 'relay' || top.deferred) return false;
    this.stack.pop();
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
      this.reader.push(chunk, (body) => frames.push(checkBridgeFrame(parseJsonBody('bridge pipe', body), this.captureMaxChars)));
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
    this.stack.length = 0;
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
    if ('nestedOutput' in frame || 'nestedDone' in frame) return this.onNestedReport(frame);
    const top = this.top;
    // The worker blocks on each call: another may come only from a child's cell the host is running in it.
    if (top && !(top.nested?.op.op === 'exec' && top.via === 'pipe' && this.stack.length < MAX_NESTED_DEPTH)) {
      this.fail(new ChannelViolation('bridge pipe', `sub-call ${frame.callId} made while sub-call ${top.callId} was in flight`));
      return;
    }
    if (this.held || this.stack.some((f) => f.callId === frame.callId)) {
      this.fail(new ChannelViolation('bridge pipe', `sub-call ${frame.callId} made while another was waiting or with the id of one in flight`));
      return;
    }
    this.stack.push({ callId: frame.callId, via: 'pipe' });
    if (this.outputs >= frame.afterOutputs) this.dispatch(frame);
    else this.held = frame;
  }

  /** Output or the outcome of the nested op in flight: anything else (no such op, another child or op) is a break. */
  private onNestedReport(frame: NestedReportFrame): void {
    const top = this.top;
    const nested = top?.nested;
    const report = 'nestedOutput' in frame ? frame.nestedOutput : frame.nestedDone;
    if (!top || !nested || top.callId !== frame.callId || report.child !== nested.op.child || ('nestedDone' in frame && frame.nestedDone.op !== nested.op.op) || ('nestedOutput' in frame && nested.op.op !== 'exec')) {
      this.fail(new ChannelViolation('bridge pipe', `a nested report for call ${frame.callId} that no nested op in flight expects`));
      return;
    }
    if ('nestedOutput' in frame) return nested.handlers.output(frame.nestedOutput.stream, frame.nestedOutput.text);
    top.nested = undefined;
    nested.handlers.done(frame.nestedDone);
    this.flush();
  }

  private dispatch({ callId, call }: { callId: number; call: ReplCall }): void {
    this.held = undefined;
    const depth = this.stack.length - 1;
    this.handlers.call(
      callId,
      call,
      (reply) => {
        const flight = this.stack.find((f) => f.callId === callId);
        if (!flight || flight.via !== 'pipe' || flight.deferred) return; // cancelled meanwhile
        flight.deferred = reply;
        this.flush();
      },
      depth,
    );
  }

  private write(frame: BridgeReplyFrame): void {
    if (!this.socket.destroyed) this.socket.write(encodeFrame(frame));
  }
}
