// The wire format of `context` on the REPL's context pipe: a stream of frames, so the host can send the
// input as it reads it and Python can decode each entry as soon as it is complete (src/worker/python/binding.py).
// A frame is a 9-byte head (kind, meta length, data length; unsigned 32-bit little-endian), the meta
// (a file's path, UTF-8) and the data. One bind is either one 'T' frame or any number of 'F' frames,
// then 'E'. 'A' aborts the bind: the host could not deliver what it announced (a file that shrank
// while read), so Python drops what it received and nothing is bound.
export const FRAME_HEAD_BYTES = 9;
const MAX_FRAME_DATA_BYTES = 0xffff_ffff;

// 'Z' opens a lazy bind (data: JSON settings) and each 'L' lists one file of it (data: its planned size,
// 4 bytes little-endian): the texts are fetched over the bridge when read (lazyContextHost.ts).
// 'M' (data: JSON, childMessages.ts ReplFormatMeta) comes last before 'E': what the input is, for context_meta().
type FrameKind = 'T' | 'F' | 'E' | 'A' | 'L' | 'Z' | 'M';

export function frameHead(kind: FrameKind, dataLength: number, path?: string): Buffer {
  if (!Number.isInteger(dataLength) || dataLength < 0 || dataLength > MAX_FRAME_DATA_BYTES) throw new RangeError(`a context frame cannot carry ${dataLength} bytes`);
  const meta = path === undefined ? Buffer.alloc(0) : Buffer.from(path, 'utf8');
  const head = Buffer.allocUnsafe(FRAME_HEAD_BYTES + meta.length);
  head.writeUInt8(kind.charCodeAt(0), 0);
  head.writeUInt32LE(meta.length, 1);
  head.writeUInt32LE(dataLength, 5);
  meta.copy(head, FRAME_HEAD_BYTES);
  return head;
}

/**
 * Writes a frame's head into `into` at `at` (when it fits) and returns its length, or -1 when it does
 * not fit: the batched path of a folder's many small files, with no allocation per file.
 */
export function writeFrameHead(into: Buffer, at: number, kind: FrameKind, dataLength: number, path: string): number {
  if (dataLength > MAX_FRAME_DATA_BYTES) throw new RangeError(`a context frame cannot carry ${dataLength} bytes`);
  if (at + FRAME_HEAD_BYTES > into.length) return -1;
  const metaLength = into.write(path, at + FRAME_HEAD_BYTES, 'utf8');
  // A path cut by the end of the buffer would be silently wrong: measure and compare.
  if (metaLength !== Buffer.byteLength(path, 'utf8')) return -1;
  into.writeUInt8(kind.charCodeAt(0), at);
  into.writeUInt32LE(metaLength, at + 1);
  into.writeUInt32LE(dataLength, at + 5);
  return FRAME_HEAD_BYTES + metaLength;
}
