// Pyodide's memory snapshot is a header followed by the whole wasm heap, and the top of that heap is
// memory Python has not used yet: all zeros (7 of its 30 MB for this build). A restore copies the
// snapshot's heap over a fresh wasm memory of the module's initial size, which is all zeros already, so
// those trailing zeros carry nothing, yet every REPL start read them from disk, held them in a buffer
// and copied them into the heap. Dropping them restores exactly the same memory; a snapshot whose heap
// had grown past the initial size keeps its full length up to its last non-zero byte, as before.

/** Pyodide reads its header as 32-bit words (magic, data offset, JSON length, build id): never cut into it. */
const MIN_KEPT_BYTES = 64;

/**
 * The snapshot without its trailing zero bytes, as a copy of its own (a view would carry the whole
 * buffer through postMessage's structured clone). Its length stays a multiple of 4, which Pyodide's
 * restore needs for its Uint32Array view of the header.
 */
export function trimTrailingZeros(snapshot: Uint8Array): Uint8Array {
  let end = snapshot.byteLength;
  // Words first where the view allows it: the zero tail is megabytes long.
  if (snapshot.byteOffset % 4 === 0) {
    const words = new Uint32Array(snapshot.buffer, snapshot.byteOffset, Math.floor(end / 4));
    if (end % 4 === 0) {
      let w = words.length;
      while (w > 0 && words[w - 1] === 0) w--;
      end = w * 4;
    }
  }
  while (end > 0 && snapshot[end - 1] === 0) end--;
  const kept = Math.max(MIN_KEPT_BYTES, Math.ceil(end / 4) * 4);
  return kept >= snapshot.byteLength ? snapshot : snapshot.slice(0, kept);
}
