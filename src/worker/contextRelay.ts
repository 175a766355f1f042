// The REPL process's relay of `context` from the host's pipe to the Pyodide worker. It never holds the
// input: pipe data is gathered into pieces of up to CHUNK_BYTES, each handed to the worker (transferred,
// not copied) as it fills, and the pipe is paused while more than HIGH_WATER bytes wait for the worker,
// so a worker slower than the pipe makes the host wait rather than this process grow. Data that arrives
// before its bind message (the pipe and the IPC channel are not ordered) is held until it comes.
import type { Readable } from 'node:stream';

const CHUNK_BYTES = 1024 * 1024;
const HIGH_WATER = 8 * 1024 * 1024;
const LOW_WATER = 2 * 1024 * 1024;

export interface ContextRelay {
  /** A bind started: forwarding may begin. */
  begin(): void;
  /** The worker took `bytes` (its bindAck). */
  acknowledged(bytes: number): void;
}

export function relayContext(pipe: Readable, forward: (buffer: ArrayBuffer) => void): ContextRelay {
  let piece: Uint8Array | undefined;
  let filled = 0;
  let inFlight = 0;
  let paused = false;
  let open = false;
  const early: Buffer[] = [];
  let flushScheduled = false;

  const send = (): void => {
    if (!piece || filled === 0) return;
    // The piece is handed over whole when full; a partial one is copied out at its length.
    const out = filled === piece.byteLength ? piece : piece.slice(0, filled);
    piece = undefined;
    filled = 0;
    inFlight += out.byteLength;
    forward(out.buffer as ArrayBuffer);
    if (inFlight > HIGH_WATER && !paused) {
      paused = true;
      pipe.pause();
    }
  };

  const take = (chunk: Buffer): void => {
    let at = 0;
    while (at < chunk.length) {
      piece ??= new Uint8Array(CHUNK_BYTES);
      const n = Math.min(chunk.length - at, piece.byteLength - filled);
      piece.set(chunk.subarray(at, at + n), filled);
      filled += n;
      at += n;
      if (filled === piece.byteLength) send();
    }
    // What is left goes once the pipe has nothing more for now: a bind's last frame must not wait.
    if (!flushScheduled && filled > 0) {
      flushScheduled = true;
      setImmediate(() => {
        flushScheduled = false;
        send();
      });
    }
  };

  pipe.on('data', (chunk: Buffer) => {
    if (open) take(chunk);
    else early.push(chunk);
  });

  return {
    begin() {
      open = true;
      for (const chunk of early.splice(0)) take(chunk);
    },
    acknowledged(bytes: number) {
      inFlight -= bytes;
      if (paused && inFlight < LOW_WATER) {
        paused = false;
        pipe.resume();
      }
    },
  };
}
