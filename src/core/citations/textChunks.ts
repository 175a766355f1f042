// A text already in memory, handed over as UTF-8 in chunks through one reused buffer, so scanning a
// 200 MB string never builds its 200 MB encoding.

const CHUNK_CHARS = 256 * 1024;
/** Each UTF-16 unit encodes to at most 3 bytes (a surrogate pair's 4 bytes come from two units). */
const buffer = new Uint8Array(CHUNK_CHARS * 3);
const encoder = new TextEncoder();

/** `onChunk` must copy what it keeps: the view is overwritten by the next chunk. */
export function encodeInChunks(text: string, onChunk: (bytes: Uint8Array) => void, chunkChars = CHUNK_CHARS): void {
  const size = Math.max(2, Math.min(chunkChars, CHUNK_CHARS));
  let at = 0;
  while (at < text.length) {
    let end = Math.min(text.length, at + size);
    // Never cut between the two halves of a surrogate pair: each half alone would encode as U+FFFD.
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    const { written } = encoder.encodeInto(text.slice(at, end), buffer);
    onChunk(buffer.subarray(0, written));
    at = end;
  }
}
