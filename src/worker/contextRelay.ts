// The REPL process's relay of `context` from the host's pipe to the Pyodide worker. It never holds the
// input: pipe data is gathered into pieces of up to CHUNK_BYTES, each handed to the worker (transferred,
// not copied) as it fills, and the pipe is paused while more than HIGH_WATER bytes wait for the worker,
// so a worker slower than the pipe makes the host wait rather than this process grow. Data that arrives
// before its bind message (the pipe and the control channel are not ordered) is held until it comes.
// The pipe is read into one reused buffer (net.Socket's `onread`) and copied into reused pieces, so a
// bind of any size allocates nothing per MB: freed chunks would stay in the malloc heap as RSS. Pieces
// are 256 KB: with 1 MB ones, glibc's adaptive mmap threshold moved them into the heap, which kept
// about 40 MB more per 100 MB bound.
// Backpressure counts pieces, not bytes: a pipe that trickles (a compressed input decoded as it is
// sent) makes each flush hand over a piece that is mostly empty, and a byte count let about a hundred
// such 256 KB pieces wait for the worker at once (about 26 MB more for a 200 MB .gz).

const CHUNK_BYTES = 256 * 1024;
/** Pieces handed to the worker and not yet handed back: at HIGH_WATER the pipe pauses, at LOW_WATER or fewer it resumes. */
const HIGH_WATER = 8;
const LOW_WATER = 2;

/** The pipe as the relay needs it: data is pushed to `take`; pause() and resume() apply backpressure. */
interface RelaySource {
  pause(): void;
  resume(): void;
}

interface ContextRelay {
  /** Bytes read from the pipe (copied before this returns: the caller may reuse its buffer). */
  take(chunk: Uint8Array): void;
  /** A bind started: forwarding may begin. */
  begin(): void;
  /** The worker took a piece (its bindAck), and handed it back for reuse. */
  acknowledged(buffer?: ArrayBuffer): void;
}

export function relayContext(pipe: RelaySource, forward: (buffer: ArrayBuffer, length: number) => void): ContextRelay {
  let piece: Uint8Array | undefined;
  let filled = 0;
  let piecesOut = 0;
  let paused = false;
  let open = false;
  const early: Uint8Array[] = [];
  let flushScheduled = false;
  /** Pieces the worker handed back: reused, so the process allocates a few rather than one per MB. */
  const free: Uint8Array[] = [];

  const send = (): void => {
    if (!piece || filled === 0) return;
    // Handed over whole with its length, full or not: a copy of a partial piece would be one more
    // allocation per flush, and those add up to tens of MB of heap over a large bind.
    const out = piece;
    const length = filled;
    piece = undefined;
    filled = 0;
    piecesOut += 1;
    forward(out.buffer as ArrayBuffer, length);
    if (piecesOut >= HIGH_WATER && !paused) {
      paused = true;
      pipe.pause();
    }
  };

  const take = (chunk: Uint8Array): void => {
    let at = 0;
    while (at < chunk.length) {
      piece ??= free.pop() ?? new Uint8Array(CHUNK_BYTES);
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

  return {
    take(chunk: Uint8Array) {
      if (open) take(chunk);
      else early.push(Uint8Array.prototype.slice.call(chunk)); // rare and small: the caller reuses its buffer
    },
    begin() {
      open = true;
      for (const chunk of early.splice(0)) take(chunk);
    },
    acknowledged(buffer?: ArrayBuffer) {
      piecesOut = Math.max(0, piecesOut - 1);
      if (buffer?.byteLength === CHUNK_BYTES && free.length < HIGH_WATER + 2) free.push(new Uint8Array(buffer));
      if (paused && piecesOut <= LOW_WATER) {
        paused = false;
        pipe.resume();
      }
    },
  };
}
