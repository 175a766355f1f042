// The only way out of Python: an Emscripten character device at DEVICE_PATH whose read/write handlers run
// here, in the worker. Python writes a request (an opcode byte and a payload) and reads the reply (a
// 4-byte big-endian length and the bytes); it never holds a JS object (sandbox layer 1). Each request is
// checked here, so a cell that writes to the device itself gets no more than the prelude would:
// - `B` + JSON: a sub-call (llm_query / rlm_query), answered by the host; reply: JSON.
// - `S` + decimal ms: sleep, cut short by an interrupt; reply: `1` if interrupted, else `0`.
// - `O` / `E` + UTF-8: stdout / stderr text, capped per cell here whatever Python claims; no reply.
// - `C` [+ decimal n]: the next n (or all remaining) pending `context` bytes, read straight into
//   Python's buffer; reply: the bytes.
// - `T` + decimal n / `W` + bytes: append the next n pending context bytes / these bytes to the text
//   target (textTarget.ts, opened by the worker); reply: `1`, or `0` (nothing taken) if not all ASCII.
// - `P`: the text target's bytes so far, and the target is closed; reply: the bytes.
// Handlers never throw anything but the file system's own errno errors: any other JS exception crossing
// a syscall would kill the interpreter.

import type { PyProxy } from 'pyodide/ffi';
import type { HeapSlice, TextTarget } from './textTarget';

/** The Emscripten FS calls the device needs (pyodide.FS). */
export interface EmscriptenFs {
  makedev(major: number, minor: number): number;
  registerDevice(dev: number, ops: DeviceOps): void;
  mkdev(path: string, mode: number, dev: number): void;
  ErrnoError: new (errno: number) => Error;
}

interface DeviceStream {
  node?: unknown;
}

interface DeviceOps {
  open(stream: DeviceStream): void;
  close(stream: DeviceStream): void;
  read(stream: DeviceStream, buffer: Int8Array, offset: number, length: number, position: number): number;
  write(stream: DeviceStream, buffer: Int8Array, offset: number, length: number, position: number): number;
}

/** What the device asks of the worker. */
interface ChannelHost {
  /** A sub-call round trip; returns the reply as JSON text. */
  bridge(callJson: string): string;
  /** Sleeps up to `ms`; 1 when an interrupt cut it short. */
  sleep(ms: number): number;
  /** Text that passed the cap, in order. */
  output(stream: 'stdout' | 'stderr', text: string): void;
}

const DEVICE_PATH = '/dev/rlm';
const EINVAL = 28; // Emscripten's errno numbering (musl)
const EBADMSG = 9;
const MAX_REQUEST_BYTES = 1024 * 1024 * 1024;

/** Counts of one cell's output as the device saw it: what was passed on and what was dropped. */
interface OutputTally {
  stdoutChars: number;
  stderrChars: number;
  droppedChars: number;
}

export class PythonChannel {
  private reply: Array<Uint8Array | HeapSlice> = [];
  private context: Uint8Array | undefined;
  /** How much of `context` Python has taken. */
  private contextAt = 0;
  private target: TextTarget | undefined;
  private tally: OutputTally = { stdoutChars: 0, stderrChars: 0, droppedChars: 0 };
  private readonly decoder = new TextDecoder('utf-8');
  private readonly encoder = new TextEncoder();

  constructor(
    private host: ChannelHost,
    /** Most characters per stream and cell passed on to the host. */
    private captureMaxChars: number,
  ) {}

  /** Creates DEVICE_PATH in Pyodide's file system. Call after every boot: devices are not in snapshots. */
  install(fs: EmscriptenFs): void {
    const dev = fs.makedev(64, 7);
    fs.registerDevice(dev, {
      open: () => undefined,
      close: () => undefined,
      read: (_stream, buffer, offset, length) => this.readReply(buffer, offset, length),
      write: (_stream, buffer, offset, length) => {
        try {
          this.request(new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length));
          return length;
        } catch (error) {
          if (error instanceof ChannelRequestError) throw new fs.ErrnoError(error.errno);
          throw new fs.ErrnoError(EBADMSG);
        }
      },
    });
    fs.mkdev(DEVICE_PATH, 0o666, dev);
  }

  setCaptureMaxChars(chars: number): void {
    this.captureMaxChars = chars;
  }

  /** A cell starts: its output counts afresh, and nothing of the previous reply is left to read. */
  beginCell(): void {
    this.tally = { stdoutChars: 0, stderrChars: 0, droppedChars: 0 };
    this.reply = [];
  }

  /**
   * A child run's op starts, nested in the parent's cell (which is blocked in rlm_query): its output
   * goes to `sink` and counts against a cap of its own, like any cell's. Returns the way back to the
   * parent's sink and counts.
   */
  enterNested(sink: (stream: 'stdout' | 'stderr', text: string) => void): () => void {
    const { host, tally } = this;
    this.host = { ...host, output: sink };
    this.tally = { stdoutChars: 0, stderrChars: 0, droppedChars: 0 };
    return () => {
      this.host = host;
      this.tally = tally;
    };
  }

  cellTally(): OutputTally {
    return { ...this.tally };
  }

  /** The bytes Python's next `C` and `T` requests read (binding `context`). */
  offerContext(bytes: Uint8Array): void {
    this.context = bytes;
    this.contextAt = 0;
  }

  /** Offered context bytes that Python has not taken yet. */
  contextLeft(): number {
    return this.context ? this.context.byteLength - this.contextAt : 0;
  }

  /** Where `T`/`W`/`P` write; without one those requests fail. */
  useTextTarget(target: TextTarget): void {
    this.target = target;
  }

  /** Opens a text target of `size` bytes for the bind (binding.py asked for it); false if it cannot. */
  openText(size: number): boolean {
    return this.target?.open(size) ?? false;
  }

  /** The text target, once full, handed to `adopt` (binding.py, Binder.adopt). */
  adoptText(adopt: (text: PyProxy) => void): void {
    if (!this.target) throw new RangeError('no text target');
    this.target.adopt(adopt);
  }

  /** Releases what the last Python call closed. Call only when no Python code is running. */
  settleText(): void {
    // A prefix reply left unread must not outlive its str: later reads would see freed memory.
    if (this.reply.some((part) => !(part instanceof Uint8Array))) this.reply = [];
    this.target?.settle();
  }

  /** Drops a text target left open (a bind that begins again, fails or ends). */
  discardText(): void {
    this.target?.discard();
  }

  /** Output from any route (the device, or Pyodide's own fd 1/2 handlers): capped per stream and cell. */
  output(stream: 'stdout' | 'stderr', text: string): void {
    const key = stream === 'stderr' ? 'stderrChars' : 'stdoutChars';
    const room = this.captureMaxChars - this.tally[key];
    if (room <= 0) {
      this.tally.droppedChars += text.length;
      return;
    }
    const kept = text.length <= room ? text : text.slice(0, room);
    this.tally[key] += kept.length;
    this.tally.droppedChars += text.length - kept.length;
    this.host.output(stream, kept);
  }

  private request(bytes: Uint8Array): void {
    if (bytes.length === 0 || bytes.length > MAX_REQUEST_BYTES) throw new ChannelRequestError(EINVAL);
    const op = String.fromCharCode(bytes[0]!);
    const payload = bytes.subarray(1);
    this.reply = [];
    switch (op) {
      case 'O':
      case 'E':
        this.output(op === 'E' ? 'stderr' : 'stdout', this.decoder.decode(payload));
        return;
      case 'B': {
        const text = this.decoder.decode(payload);
        try {
          JSON.parse(text);
        } catch {
          throw new ChannelRequestError(EINVAL);
        }
        this.setReply(this.encoder.encode(this.host.bridge(text)));
        return;
      }
      case 'S': {
        const ms = Number(this.decoder.decode(payload));
        if (!Number.isFinite(ms) || ms < 0) throw new ChannelRequestError(EINVAL);
        this.setReply(this.encoder.encode(String(this.host.sleep(Math.min(ms, 60_000)))));
        return;
      }
      case 'C': {
        this.setReply(this.takeContext(payload));
        return;
      }
      case 'T':
      case 'W': {
        const target = this.requireTarget();
        if (!target.isOpen) throw new ChannelRequestError(EINVAL);
        const at = this.contextAt;
        const bytes = op === 'W' ? payload : this.takeContext(payload);
        if (bytes.byteLength > 0 && !target.append(bytes)) {
          this.contextAt = at; // not taken: the buffered path reads these bytes again
          this.setReply(ZERO);
          return;
        }
        this.setReply(ONE);
        return;
      }
      case 'P': {
        const target = this.requireTarget();
        if (!target.isOpen || payload.length > 0) throw new ChannelRequestError(EINVAL);
        this.setReply(target.takePrefix());
        return;
      }
      default:
        throw new ChannelRequestError(EINVAL);
    }
  }

  /** The next `n` (payload, decimal) or all remaining offered context bytes. */
  private takeContext(payload: Uint8Array): Uint8Array {
    const context = this.context;
    if (!context) throw new ChannelRequestError(EINVAL);
    const left = context.byteLength - this.contextAt;
    const n = payload.length > 0 ? decimal(payload) : left;
    if (n > left) throw new ChannelRequestError(EINVAL);
    const bytes = context.subarray(this.contextAt, this.contextAt + n);
    this.contextAt += n;
    return bytes;
  }

  private requireTarget(): TextTarget {
    if (!this.target) throw new ChannelRequestError(EINVAL);
    return this.target;
  }

  private setReply(body: Uint8Array | HeapSlice): void {
    const head = new Uint8Array(4);
    new DataView(head.buffer).setUint32(0, body instanceof Uint8Array ? body.byteLength : body.length);
    this.reply = [head, body];
  }

  private readReply(buffer: Int8Array, offset: number, length: number): number {
    const target = new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length);
    let filled = 0;
    while (filled < length && this.reply.length > 0) {
      const part = this.reply[0]!;
      if (part instanceof Uint8Array) {
        const take = Math.min(part.byteLength, length - filled);
        target.set(part.subarray(0, take), filled);
        filled += take;
        if (take === part.byteLength) this.reply.shift();
        else this.reply[0] = part.subarray(take);
        continue;
      }
      // A slice of wasm memory, read from the heap as it is now (`buffer` is the whole current heap).
      const take = Math.min(part.length, length - filled);
      new Uint8Array(buffer.buffer).copyWithin(buffer.byteOffset + offset + filled, part.start, part.start + take);
      filled += take;
      part.start += take;
      part.length -= take;
      if (part.length === 0) this.reply.shift();
    }
    return filled;
  }
}

const ONE = new Uint8Array([0x31]);
const ZERO = new Uint8Array([0x30]);

/** A request's decimal payload; anything else is the caller's error. */
function decimal(payload: Uint8Array): number {
  if (payload.length === 0 || payload.length > 12) throw new ChannelRequestError(EINVAL);
  let n = 0;
  for (const c of payload) {
    if (c < 0x30 || c > 0x39) throw new ChannelRequestError(EINVAL);
    n = n * 10 + (c - 0x30);
  }
  return n;
}

class ChannelRequestError extends Error {
  constructor(readonly errno: number) {
    super(`bad request on the REPL channel (errno ${errno})`);
  }
}
