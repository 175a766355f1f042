// The only way out of Python: an Emscripten character device at DEVICE_PATH whose read/write handlers run
// here, in the worker. Python writes a request (an opcode byte and a payload) and reads the reply (a
// 4-byte big-endian length and the bytes); it never holds a JS object (sandbox layer 1). Each request is
// checked here, so a cell that writes to the device itself gets no more than the prelude would:
// - `B` + JSON: a sub-call (llm_query / rlm_query), answered by the host; reply: JSON.
// - `S` + decimal ms: sleep, cut short by an interrupt; reply: `1` if interrupted, else `0`.
// - `O` / `E` + UTF-8: stdout / stderr text, capped per cell here whatever Python claims; no reply.
// - `C`: the pending `context` bytes, read straight into Python's buffer; reply: the bytes.
// Handlers never throw anything but the file system's own errno errors: any other JS exception crossing
// a syscall would kill the interpreter.

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
  private reply: Uint8Array[] = [];
  private context: Uint8Array | undefined;
  private tally: OutputTally = { stdoutChars: 0, stderrChars: 0, droppedChars: 0 };
  private readonly decoder = new TextDecoder('utf-8');
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly host: ChannelHost,
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

  cellTally(): OutputTally {
    return { ...this.tally };
  }

  /** The bytes Python's next `C` request reads (binding `context`). */
  offerContext(bytes: Uint8Array): void {
    this.context = bytes;
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
        const context = this.context;
        this.context = undefined;
        if (!context) throw new ChannelRequestError(EINVAL);
        this.setReply(context);
        return;
      }
      default:
        throw new ChannelRequestError(EINVAL);
    }
  }

  private setReply(body: Uint8Array): void {
    const head = new Uint8Array(4);
    new DataView(head.buffer).setUint32(0, body.byteLength);
    this.reply = [head, body];
  }

  private readReply(buffer: Int8Array, offset: number, length: number): number {
    const target = new Uint8Array(buffer.buffer, buffer.byteOffset + offset, length);
    let filled = 0;
    while (filled < length && this.reply.length > 0) {
      const part = this.reply[0]!;
      const take = Math.min(part.byteLength, length - filled);
      target.set(part.subarray(0, take), filled);
      filled += take;
      if (take === part.byteLength) this.reply.shift();
      else this.reply[0] = part.subarray(take);
    }
    return filled;
  }
}

class ChannelRequestError extends Error {
  constructor(readonly errno: number) {
    super(`bad request on the REPL channel (errno ${errno})`);
  }
}
