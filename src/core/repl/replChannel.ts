// The host's end of the control channel to the REPL process (its fd 5): length-prefixed JSON frames
// both ways, parsed by our own code. It replaced Node's IPC channel, whose deserialisers (advanced and
// json alike) throw an uncaught exception on bad input: one 12-byte write from a cell that reached the
// worker's `process` crashed the host. Here every frame is bounded, decoded without throwing past this
// file, and checked against childMessages.ts; the first bad one is reported once and the rest ignored.
import type { Duplex } from 'node:stream';
import { ChildMessageCheck, MAX_CHANNEL_FRAME_BYTES } from './childMessages';
import type { WireChildToHost } from './childMessages';
import { ChannelViolation, encodeFrame, FrameReader, parseJsonBody } from './frameCodec';
import type { ChildToHost, HostToChild } from './replProtocol';

interface ReplChannelHandlers {
  message(message: ChildToHost): void;
  /** The process broke the protocol; called once, after which nothing more is read. */
  violation(violation: ChannelViolation): void;
}

export class ReplChannel {
  private readonly reader: FrameReader;
  private readonly check: ChildMessageCheck;
  /** A snapshot announced by its header, whose bytes are the next frame. */
  private snapshot: { key: string; byteLength: number } | undefined;
  private ready = false;
  private broken = false;

  constructor(
    private readonly socket: Duplex,
    captureMaxChars: number,
    private readonly handlers: ReplChannelHandlers,
  ) {
    this.check = new ChildMessageCheck(captureMaxChars);
    this.reader = new FrameReader('channel', () => (this.snapshot ? this.snapshot.byteLength : MAX_CHANNEL_FRAME_BYTES));
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', () => undefined); // surfaces as the child's exit
  }

  send(message: HostToChild): void {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(encodeFrame(message));
  }

  /** Stops reading: the process is being killed, and nothing it still sends is looked at. */
  close(): void {
    this.broken = true;
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    if (this.broken) return;
    const messages: ChildToHost[] = [];
    let violation: ChannelViolation | undefined;
    try {
      this.reader.push(chunk, (body) => {
        const message = this.decode(body);
        if (message) messages.push(message);
      });
    } catch (error) {
      // Only ChannelViolation is thrown by the reader and the checks; anything else is a bug of ours,
      // and is still the end of this process rather than of the host.
      violation = error instanceof ChannelViolation ? error : new ChannelViolation('channel', `unreadable message (${String(error).slice(0, 200)})`);
    }
    // Handled outside the try: a failure in the session's own handling is not the process's doing.
    for (const message of messages) if (!this.broken) this.handlers.message(message);
    if (violation) this.fail(violation);
  }

  /** One frame: a checked message, or undefined for a snapshot's announcement (its bytes come next). */
  private decode(body: Buffer): ChildToHost | undefined {
    if (this.snapshot) {
      const { key, byteLength } = this.snapshot;
      this.snapshot = undefined;
      if (body.length !== byteLength) throw new ChannelViolation('channel', `a snapshot of ${body.length} bytes where ${byteLength} were announced`);
      return { type: 'snapshot', key, bytes: body };
    }
    const message: WireChildToHost = this.check.message(parseJsonBody('channel', body));
    // Start-up messages are believed only before `ready`: the process sends each once, before any cell.
    if (message.type === 'snapshot' || message.type === 'ready') {
      if (this.ready) throw new ChannelViolation('channel', `a ${message.type} message after the process was ready`);
      if (message.type === 'snapshot') {
        this.snapshot = { key: message.key, byteLength: message.byteLength };
        return undefined;
      }
      this.ready = true;
    }
    return message;
  }

  private fail(violation: ChannelViolation): void {
    if (this.broken) return;
    this.broken = true;
    this.handlers.violation(violation);
  }
}
