// The host's end of the bridge pipe: length-prefixed JSON frames straight to and from the REPL worker,
// which writes a call and then blocks reading the reply (src/worker/bridgePipeSync.ts). The host keeps
// the one call in flight, so an interrupt can cancel it once the child has set the interrupt buffer,
// and holds a call until the output printed before it has arrived by the other route.
import type { Duplex } from 'node:stream';
import type { BridgeReply, BridgeReplyFrame, BridgeRequestFrame } from './replProtocol';
import type { BridgeCall, ReplCall } from './replTypes';
import { isContextCall } from './lazyContextHost';

/** 4-byte big-endian length, then that many bytes of UTF-8 JSON. */
export function encodeFrame(value: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}

export class BridgeFrameError extends Error {
  constructor(readonly detail: string) {
    super(`malformed bridge frame from the REPL: ${detail}`);
    this.name = 'BridgeFrameError';
  }
}

/**
 * Largest bridge frame the host accepts (a batch of prompts, or an rlm_query context): well above any
 * real call, but a REPL that announces more is broken or hostile and is stopped before the host buffers it.
 */
export const MAX_BRIDGE_FRAME_BYTES = 1024 * 1024 * 1024;

/** Splits a byte stream into frames; chunks may cut frames anywhere. Joins chunks once per frame. */
export class FrameDecoder {
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(private readonly maxFrameBytes = MAX_BRIDGE_FRAME_BYTES) {}

  push(chunk: Buffer): unknown[] {
    this.chunks.push(chunk);
    this.bytes += chunk.length;
    const out: unknown[] = [];
    while (this.bytes >= 4) {
      if (this.chunks[0]!.length < 4) this.join();
      const length = this.chunks[0]!.readUInt32BE(0);
      if (length > this.maxFrameBytes) throw new BridgeFrameError(`a frame of ${length} bytes is over the ${this.maxFrameBytes}-byte limit`);
      if (this.bytes < 4 + length) break;
      const all = this.join();
      const body = all.subarray(4, 4 + length).toString('utf8');
      const rest = all.subarray(4 + length);
      this.chunks = rest.length ? [rest] : [];
      this.bytes = rest.length;
      try {
        out.push(JSON.parse(body));
      } catch {
        throw new BridgeFrameError(`not JSON: ${body.slice(0, 80)}`);
      }
    }
    return out;
  }

  private join(): Buffer {
    const joined = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    this.chunks = [joined];
    return joined;
  }
}

/** The shape the dispatcher relies on; the frame comes from code the model wrote, so it is checked. */
export function isBridgeCall(value: unknown): value is BridgeCall {
  if (!value || typeof value !== 'object') return false;
  const call = value as Record<string, unknown>;
  if (!Array.isArray(call.prompts) || !call.prompts.every((p) => typeof p === 'string') || typeof call.batched !== 'boolean') return false;
  if (call.kind === 'llm_query') return call.model === undefined || call.model === null || typeof call.model === 'string';
  return call.kind === 'rlm_query' && Array.isArray(call.contexts) && call.contexts.length === call.prompts.length;
}

export interface BridgePipeHandlers {
  call(callId: number, call: ReplCall, reply: (reply: BridgeReply) => void): void;
  /** A frame that is not a call: the REPL side is broken or hostile. */
  malformed(error: BridgeFrameError): void;
}

export class BridgePipe {
  private readonly decoder = new FrameDecoder();
  /** The call the worker is blocked on, if any. */
  private pending: number | undefined;
  /** `output` messages that have arrived over IPC from this child. */
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
    this.write({ callId, cancelled: true });
  }

  /** One `output` message from the child has been handled; a call waiting for it may go now. */
  outputArrived(): void {
    this.outputs++;
    if (this.held && this.outputs >= this.held.afterOutputs) this.dispatch(this.held);
  }

  private receive(chunk: Buffer): void {
    let frames: unknown[];
    try {
      frames = this.decoder.push(chunk);
    } catch (error) {
      this.handlers.malformed(error instanceof BridgeFrameError ? error : new BridgeFrameError(String(error)));
      return;
    }
    for (const frame of frames) this.onFrame(frame as BridgeRequestFrame);
  }

  private onFrame(frame: BridgeRequestFrame): void {
    if (!frame || typeof frame !== 'object' || typeof frame.callId !== 'number') {
      this.handlers.malformed(new BridgeFrameError(`no callId in ${JSON.stringify(frame).slice(0, 80)}`));
      return;
    }
    if ('hello' in frame) {
      this.write({ callId: 0, hello: true });
      return;
    }
    if (!(isBridgeCall(frame.call) || isContextCall(frame.call)) || typeof frame.afterOutputs !== 'number') {
      this.handlers.malformed(new BridgeFrameError(`not a sub-call: ${JSON.stringify(frame).slice(0, 80)}`));
      return;
    }
    this.pending = frame.callId;
    if (this.outputs >= frame.afterOutputs) this.dispatch(frame);
    else this.held = frame;
  }

  private dispatch({ callId, call }: { callId: number; call: ReplCall }): void {
    this.held = undefined;
    this.handlers.call(callId, call, (reply) => {
      if (this.pending !== callId) return; // cancelled meanwhile
      this.pending = undefined;
      this.write(reply);
    });
  }

  private write(frame: BridgeReplyFrame): void {
    if (!this.socket.destroyed) this.socket.write(encodeFrame(frame));
  }
}
