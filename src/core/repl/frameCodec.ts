// Length-prefixed frames between the host and the REPL process: a 4-byte big-endian length, then that
// many bytes. The host's reader treats every byte from the REPL process as hostile (docs/security.md,
// "The channel"): a length over the bound is refused before anything is buffered for it, memory grows
// only with bytes that really arrived, and nothing it does on bad input throws anything but a
// ChannelViolation, which the caller turns into the end of that REPL process.

/** What the REPL process sent that the host refuses; `detail` says what, never more than a short excerpt. */
export class ChannelViolation extends Error {
  override readonly name = 'ChannelViolation';
  constructor(
    /** Which stream it came on: 'channel', 'bridge pipe', 'context pipe', 'stdout', 'stderr'. */
    readonly stream: string,
    readonly detail: string,
  ) {
    super(`the REPL process sent a malformed message on its ${stream}: ${detail}`);
  }
}

export function encodeFrame(value: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(value), 'utf8');
  const frame = Buffer.allocUnsafe(4 + body.length);
  frame.writeUInt32BE(body.length, 0);
  body.copy(frame, 4);
  return frame;
}

/** A frame whose body is raw bytes (the memory snapshot), not JSON. */
export function encodeRawFrame(bytes: Uint8Array): Buffer[] {
  const header = Buffer.allocUnsafe(4);
  header.writeUInt32BE(bytes.byteLength, 0);
  return [header, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)];
}

/** Grows the body buffer by doubling: memory held stays within twice the bytes received for the frame. */
const FIRST_BODY_BYTES = 64 * 1024;

/**
 * Splits a byte stream into frame bodies; chunks may cut frames anywhere. Work is linear in the bytes
 * received however they are cut (a body is copied once into its own buffer, grown by doubling), and the
 * bytes held never exceed the current frame's bound plus the chunk being read.
 */
export class FrameReader {
  private header = Buffer.alloc(4);
  private headerFill = 0;
  /** Length of the body being read, or -1 while reading a header. */
  private length = -1;
  private body: Buffer = Buffer.alloc(0);
  private bodyFill = 0;

  /**
   * @param stream names the stream in errors.
   * @param maxFrameBytes the bound for the next frame: called once per header, so a reader can allow
   *   a larger frame only where one is expected (the snapshot, right after its announcement).
   */
  constructor(
    private readonly stream: string,
    private readonly maxFrameBytes: () => number,
  ) {}

  /** Bytes held for a frame not yet complete. */
  get buffered(): number {
    return this.length < 0 ? this.headerFill : this.bodyFill;
  }

  /**
   * Takes a chunk and hands each body it completes to `onFrame`, in order, before the next header is
   * read (so the next frame's bound may depend on the body before it). Throws ChannelViolation.
   */
  push(chunk: Uint8Array, onFrame: (body: Buffer) => void): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.length < 0) {
        const n = Math.min(4 - this.headerFill, chunk.length - at);
        for (let i = 0; i < n; i++) this.header[this.headerFill + i] = chunk[at + i]!;
        this.headerFill += n;
        at += n;
        if (this.headerFill < 4) return;
        this.headerFill = 0;
        const length = this.header.readUInt32BE(0);
        const max = this.maxFrameBytes();
        if (length > max) throw new ChannelViolation(this.stream, `a frame of ${length} bytes announced, over the ${max}-byte bound`);
        this.length = length;
        this.bodyFill = 0;
        // A whole frame inside this chunk needs no copy of its own.
        if (chunk.length - at >= length) {
          const body = Buffer.from(chunk.buffer, chunk.byteOffset + at, length);
          at += length;
          this.length = -1;
          onFrame(body);
          continue;
        }
        this.body = Buffer.allocUnsafe(Math.min(length, Math.max(FIRST_BODY_BYTES, chunk.length - at)));
        continue;
      }
      const n = Math.min(this.length - this.bodyFill, chunk.length - at);
      if (this.bodyFill + n > this.body.length) {
        const grown = Buffer.allocUnsafe(Math.min(this.length, Math.max(this.body.length * 2, this.bodyFill + n)));
        this.body.copy(grown, 0, 0, this.bodyFill);
        this.body = grown;
      }
      this.body.set(chunk.subarray(at, at + n), this.bodyFill);
      this.bodyFill += n;
      at += n;
      if (this.bodyFill === this.length) {
        const body = this.body.subarray(0, this.length);
        this.body = Buffer.alloc(0);
        this.length = -1;
        onFrame(body);
      }
    }
  }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** A frame body as JSON: invalid UTF-8 or JSON is a ChannelViolation, never a thrown SyntaxError. */
export function parseJsonBody(stream: string, body: Uint8Array): unknown {
  let text: string;
  try {
    text = strictUtf8.decode(body);
  } catch {
    throw new ChannelViolation(stream, 'a frame that is not valid UTF-8');
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new ChannelViolation(stream, `a frame that is not JSON (${excerpt(text)})`);
  }
}

/** At most 60 characters of what was sent, with control characters shown as escapes. */
export function excerpt(text: string): string {
  const head = text.slice(0, 60);
  return JSON.stringify(head) + (text.length > 60 ? '…' : '');
}
