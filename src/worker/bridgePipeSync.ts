// The worker's end of the bridge pipe: writes a call frame and blocks in read(2) until the host's reply
// frame arrives, with no hop through the child's main thread. Frames are a 4-byte big-endian length and
// UTF-8 JSON (src/core/repl/bridgePipe.ts is the host's end). An interrupt reaches a blocked call as a
// `cancelled` frame, which the host writes once the child has set the interrupt buffer.
import * as nodeFs from 'node:fs';

// Taken when this module loads: once cells may run, the fs module itself is emptied (fileSystemSeal.ts),
// and the bridge pipe is the one descriptor the worker still reads and writes.
const { readSync, writeSync } = nodeFs;

export class BridgePipeClosedError extends Error {
  constructor() {
    super('the host closed the bridge pipe');
    this.name = 'BridgePipeClosedError';
  }
}

/** Raw frame bodies (JSON text) in and out of one fd, synchronously. */
export interface SyncFrameIo {
  write(body: string): void;
  read(): string;
}

const isAgain = (error: unknown): boolean => (error as NodeJS.ErrnoException | undefined)?.code === 'EAGAIN';

export function fdFrameIo(fd: number): SyncFrameIo {
  // Only for a descriptor that turns out non-blocking: pause briefly instead of spinning hot.
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const backOff = (): void => void Atomics.wait(pause, 0, 0, 1);
  // Most replies fit here whole, so one read(2) usually takes the header and the body together.
  const scratch = Buffer.allocUnsafe(64 * 1024);
  let held = 0; // bytes of the next frame(s) already in `scratch`

  /** Reads at least one byte into `buffer` at `offset`; returns how many. */
  const readSome = (buffer: Buffer, offset: number): number => {
    for (;;) {
      try {
        const got = readSync(fd, buffer, offset, buffer.length - offset, null);
        if (got === 0) throw new BridgePipeClosedError();
        return got;
      } catch (error) {
        if (!isAgain(error)) throw error;
        backOff();
      }
    }
  };

  return {
    write(body) {
      const length = Buffer.byteLength(body, 'utf8');
      const frame = Buffer.allocUnsafe(4 + length);
      frame.writeUInt32BE(length, 0);
      frame.write(body, 4, 'utf8');
      let written = 0;
      while (written < frame.length) {
        try {
          written += writeSync(fd, frame, written, frame.length - written);
        } catch (error) {
          if (!isAgain(error)) throw error;
          backOff();
        }
      }
    },
    read() {
      while (held < 4) held += readSome(scratch, held);
      const length = scratch.readUInt32BE(0);
      if (4 + length <= scratch.length) {
        while (held < 4 + length) held += readSome(scratch, held);
        const body = scratch.toString('utf8', 4, 4 + length);
        // Bytes past this frame (a stale reply followed by the real one) stay for the next read.
        scratch.copy(scratch, 0, 4 + length, held);
        held -= 4 + length;
        return body;
      }
      // A large reply: its own buffer, filled from what is held and then straight from the pipe.
      const big = Buffer.allocUnsafe(length);
      let filled = scratch.copy(big, 0, 4, held);
      held = 0;
      while (filled < length) filled += readSome(big, filled);
      return big.toString('utf8');
    },
  };
}

/**
 * Checks at start-up that the pipe can be used synchronously from this thread: sends `hello` and
 * waits for the host's echo. Returns why not, or undefined when it works.
 */
export function probeBridgePipe(io: SyncFrameIo): string | undefined {
  try {
    io.write('{"callId":0,"hello":true}');
    const echo = JSON.parse(io.read()) as { callId?: number; hello?: boolean };
    return echo.callId === 0 && echo.hello === true ? undefined : `unexpected answer to the bridge probe: ${JSON.stringify(echo).slice(0, 80)}`;
  } catch (error) {
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}
