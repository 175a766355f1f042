// A text already in memory, as UTF-8 in chunks through one buffer reused chunk after chunk, so that
// streaming or scanning a 200 MB string never builds its 200 MB encoding.

const UNITS_PER_CHUNK = 256 * 1024;

/**
 * Each chunk is a view of the same buffer: use (or copy) it before asking for the next. At most
 * `unitsPerChunk` UTF-16 units per chunk (3 bytes of UTF-8 each at most; a surrogate pair is 2 units
 * for 4 bytes), and a cut never splits a surrogate pair (each half alone would encode as U+FFFD).
 */
export function* utf8Chunks(text: string, unitsPerChunk = UNITS_PER_CHUNK): Generator<Uint8Array> {
  const size = Math.max(2, unitsPerChunk);
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(size, text.length) * 3));
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + size);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end -= 1;
    const written = buffer.write(text.slice(at, end), 0, 'utf8');
    yield buffer.subarray(0, written);
    at = end;
  }
}
