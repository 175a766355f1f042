// Plans and reads compressed files (compressedRead.ts) for `context`: a compressed file named alone is
// sampled when planned (its first text, its ratio, and, when small, its exact size: every bomb small
// enough to be a bomb is decoded whole here, before the root's first request goes out); inside a
// folder its size is estimated without reading it, and the limits are applied to what it decodes to
// when it is read.
import { BINARY_SNIFF_BYTES, hasNulByte } from './binaryDetection';
import type { Compression } from './compressedFormats';
import { readCompressed } from './compressedRead';
import type { CompressedRead } from './compressedRead';
import { BinaryFileError, ContextTooLargeError, CorruptCompressedFileError, DecompressionBombError } from './contextErrors';
import { swappedRefusal, swappedSkip } from './swappedFile';
import type { ContextPlan, PlannedFile, TargetDescription } from './contextTypes';

/**
 * Compressed bytes decoded when a file named alone is planned. Past this the size is estimated from
 * the ratio so far, and counted exactly while binding. 1 MB of gzip'd log decodes in ~30 ms; a bomb
 * that reaches a 256 MB limit at gzip's best ratio is 250 KB, so bombs are caught whole here.
 */
const SAMPLE_STORED_BYTES = 1024 * 1024;
/** The ratio assumed for a compressed file in a folder, never read when planned: gzip'd logs are 5-15:1. */
const FOLDER_ESTIMATE_RATIO = 8;
/** A named file estimated at more than this many times the limit is refused at once; up to it, counting decides. */
const ESTIMATE_SLACK = 2;

type Skipped = TargetDescription['skipped'][number];

/** Turns what a read found into the error that says so (a named file). */
function refusal(shown: string, read: Exclude<CompressedRead, { kind: 'done' | 'stopped' }>, limit: number): Error {
  switch (read.kind) {
    case 'bomb':
      return new DecompressionBombError(shown, 'ratio', read.bytesSeen, read.takenBytes, limit);
    case 'too-large':
      return new DecompressionBombError(shown, 'limit', read.bytesSeen, read.takenBytes, limit);
    case 'corrupt':
      return new CorruptCompressedFileError(shown, read.detail);
    default:
      return swappedRefusal(shown, read);
  }
}

/** The plan of one compressed file named alone: a `str` of what it decodes to. */
export async function planCompressedFile(shown: string, abs: string, format: Compression, maxTotalBytes: number): Promise<ContextPlan> {
  const head = new Uint8Array(BINARY_SNIFF_BYTES);
  let headLength = 0;
  const read = await readCompressed(abs, format, { maxBytes: maxTotalBytes, sampleStoredBytes: SAMPLE_STORED_BYTES }, (piece) => {
    if (headLength >= head.length) return;
    const take = piece.subarray(0, head.length - headLength);
    head.set(take, headLength);
    headLength += take.byteLength;
  });
  if (read.kind !== 'done' && read.kind !== 'stopped') throw refusal(shown, read, maxTotalBytes);
  const text = head.subarray(0, headLength);
  // A compressed binary (a .gz of an image) is still binary.
  if (hasNulByte(text)) throw new BinaryFileError(shown, 'nul-byte');
  const exact = read.kind === 'done';
  const bytes = exact ? read.bytes : Math.ceil((read.bytes / Math.max(1, read.takenBytes)) * read.storedBytes);
  if (!exact && bytes > ESTIMATE_SLACK * maxTotalBytes) throw new ContextTooLargeError(bytes, maxTotalBytes, [{ path: shown, bytes }]);
  return {
    shape: 'text',
    files: [{ path: shown, abs, bytes, compression: format, storedBytes: read.storedBytes, ...(exact ? { exact: true } : {}) }],
    head: text,
    totalBytes: bytes,
    maxFileBytes: maxTotalBytes,
    maxTotalBytes,
    target: { kind: 'file', paths: [shown], totalBytes: bytes, fileCount: 1, skipped: [] },
    format: { compression: format },
  };
}

/** A compressed file found in a folder: planned at an estimated size, its limits applied when read. */
export function plannedCompressed(path: string, abs: string, format: Compression, storedBytes: number): PlannedFile {
  return { path, abs, bytes: storedBytes * FOLDER_ESTIMATE_RATIO, compression: format, storedBytes };
}

/**
 * Decodes a planned compressed file into `into` (as readPlannedInto reads a plain one): `full` when it
 * does not fit (past the per-file limit, which holds for the decompressed bytes); a bomb, damaged data
 * or a file swapped since the walk is skipped with its reason. `named`: the user named this file (a link
 * they named is followed, as for a plain file named alone); a walk's files are read without following.
 */
export async function readCompressedInto(file: PlannedFile & { compression: Compression }, into: Uint8Array, within?: readonly string[], named = false): Promise<{ kind: 'read'; length: number } | { kind: 'full' } | { kind: 'skipped'; skipped: Skipped }> {
  let length = 0;
  let read: CompressedRead;
  try {
    read = await readCompressed(file.abs, file.compression, { maxBytes: into.length - 1, noFollow: !named, ...(within ? { within } : {}) }, (piece) => {
      into.set(piece, length);
      length += piece.byteLength;
    });
  } catch {
    return { kind: 'skipped', skipped: { path: file.path, reason: 'unreadable' } };
  }
  switch (read.kind) {
    case 'done':
      if (hasNulByte(into.subarray(0, length))) return { kind: 'skipped', skipped: { path: file.path, reason: 'binary', bytes: length, detail: `${file.compression}-compressed` } };
      return { kind: 'read', length };
    case 'stopped':
    case 'too-large':
      return { kind: 'full' };
    case 'bomb':
      return { kind: 'skipped', skipped: { path: file.path, reason: 'too-large', bytes: read.bytesSeen, detail: `a decompression bomb: over ${Math.floor(read.bytesSeen / Math.max(1, read.takenBytes))}-fold from ${file.compression}` } };
    case 'corrupt':
      return { kind: 'skipped', skipped: { path: file.path, reason: 'unreadable', detail: read.detail } };
    default:
      return swappedSkip(file.path, read);
  }
}

/**
 * Counts what a compressed file named alone decodes to, refusing a bomb or a file past the limit: the
 * exact size a `str` is announced with before its text is sent.
 */
export async function countCompressed(file: PlannedFile & { compression: Compression }, limit: number, signal?: AbortSignal): Promise<number> {
  if (file.exact) return file.bytes;
  const read = await readCompressed(file.abs, file.compression, { maxBytes: limit, ...(signal ? { signal } : {}) }, () => undefined);
  if (read.kind === 'done') return read.bytes;
  if (read.kind === 'stopped') throw new CorruptCompressedFileError(file.path, 'decoding stopped early');
  throw refusal(file.path, read, limit);
}

/** True when the planned file is read decompressed. */
export function isCompressed(file: PlannedFile): file is PlannedFile & { compression: Compression } {
  return file.compression !== undefined;
}

