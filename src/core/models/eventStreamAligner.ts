// Hands a server-sent-event body to the SDKs in whole events. Their SSE parsers (openai and
// @anthropic-ai/sdk alike) copy every network chunk onto everything received since the last blank
// line and rescan that from its start, so an event that never ends costs time quadratic in its
// length: 16 MB without a blank line took 9 s of CPU, 100 MB would take minutes. Passing bytes on
// only up to the last event boundary, by the SDKs' own rule, lets them parse each byte about once.
// The search is Buffer.lastIndexOf (native); no JavaScript loop touches each byte.

/** The SDKs' event boundaries (findDoubleNewlineIndex): \n\n, \r\r and \r\n\r\n. */
const BOUNDARIES = [Buffer.from('\n\n'), Buffer.from('\r\r'), Buffer.from('\r\n\r\n')];
/** A boundary split across two chunks starts at most this many bytes before the new chunk. */
const EDGE = 3;

export class EventStreamAligner {
  /** Bytes after the last boundary passed on: an event still arriving. */
  #pending: Uint8Array[] = [];
  /** The stream's last bytes before the current chunk, to find a boundary split across chunks. */
  #tail: Uint8Array = new Uint8Array(0);

  /** Takes the next chunk; returns the bytes now ready (ending at an event boundary), if any. */
  push(chunk: Uint8Array): Uint8Array | undefined {
    if (chunk.byteLength === 0) return undefined;
    const end = lastBoundaryEnd(this.#tail, chunk);
    this.#tail = lastBytes(this.#tail, chunk);
    if (end < 0) {
      this.#pending.push(chunk);
      return undefined;
    }
    const head = chunk.subarray(0, end);
    const ready = this.#pending.length === 0 ? head : Buffer.concat([...this.#pending, head]);
    this.#pending = end < chunk.byteLength ? [chunk.subarray(end)] : [];
    return ready;
  }

  /** At the end of the body: whatever is left (an unterminated last event, passed on as it came). */
  flush(): Uint8Array | undefined {
    const rest = this.#pending;
    this.#pending = [];
    if (rest.length === 0) return undefined;
    return rest.length === 1 ? rest[0] : Buffer.concat(rest);
  }
}

/** The index in `chunk` just after the last boundary that ends in it, or -1. */
function lastBoundaryEnd(tail: Uint8Array, chunk: Uint8Array): number {
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  let end = -1;
  for (const boundary of BOUNDARIES) {
    const at = bytes.lastIndexOf(boundary);
    if (at >= 0) end = Math.max(end, at + boundary.length);
  }
  if (end >= 0 || tail.byteLength === 0) return end;
  // Only a boundary straddling the previous chunk can remain; it ends within the first EDGE bytes.
  const edge = Buffer.concat([tail, bytes.subarray(0, EDGE)]);
  for (const boundary of BOUNDARIES) {
    const at = edge.lastIndexOf(boundary);
    if (at >= 0 && at + boundary.length > tail.byteLength) end = Math.max(end, at + boundary.length - tail.byteLength);
  }
  return end;
}

/** The last EDGE bytes of the stream so far, copied so no large chunk is kept alive. */
function lastBytes(tail: Uint8Array, chunk: Uint8Array): Uint8Array {
  const source = chunk.byteLength >= EDGE ? chunk : Buffer.concat([tail, chunk]);
  return new Uint8Array(source.subarray(Math.max(0, source.byteLength - EDGE)));
}
