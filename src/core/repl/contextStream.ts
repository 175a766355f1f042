// Sends a ContextSource to the REPL as frames (contextFrames.ts), as it is read: a text in pieces of a
// few MB, files one frame each. Files planned on disk are read here in parallel, in order, and never
// held whole: the host's memory stays flat whatever the input's size. What could not be read (binary by
// content, gone, grown past its limit) is left out and reported with the bound entries.
import { utf8Chunks } from '../context/utf8Chunks';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { ContextReadError, ContextTooLargeError } from '../context/contextErrors';
import type { Compression } from '../context/compressedFormats';
import type { ContextPlan, ContextSource, InputFormat, PlannedFile, TargetDescription } from '../context/contextTypes';
import { countCompressed, isCompressed, readCompressedInto } from '../context/compressedPlan';
import { readCompressed } from '../context/compressedRead';
import { readAnyPlannedInto, readPlannedInto } from '../context/planReader';
import { isNotebookFile, notebookOfNamedFile } from '../context/notebookRead';
import { isPdfPage, readPdfPageInto, withPageFacts } from '../context/pdfPlan';
import { isPdfDocument, withFolderPdfFacts } from '../context/pdfInFolder';
import { TimeSlicer } from '../context/timeSlicer';
import { InvalidContextError } from './replErrors';
import { FRAME_HEAD_BYTES, frameHead, writeFrameHead } from './contextFrames';
import { formatFrame } from './contextFormatFrame';

/** The most of one entry sent in one write: the unit of memory on the way into the REPL. */
export const STREAM_CHUNK_BYTES = 1024 * 1024;
/** Bytes of the first entry kept for the metadata's prefix (200 characters of up to 4 bytes). */
const PREFIX_BYTES = 800;

interface ContextSink {
  /** Resolves when the chunk has been handed on, so it may be reused or dropped. */
  write(chunk: Uint8Array): Promise<void>;
}

export interface StreamedContext {
  shape: 'str' | 'dict';
  /** The entries sent, in order, with their UTF-8 sizes. */
  entries: Array<{ path: string; bytes: number }>;
  byteLength: number;
  prefixBytes: Uint8Array;
  /** Entries of the source left out while reading. */
  leftOut: TargetDescription['skipped'];
  /** The plan's word on compressed files and rotated logs, passed on to the metadata. */
  format?: InputFormat;
  /** Listed only (a lazy bind): the texts are fetched when read, up to `budgetBytes` kept in the REPL. */
  lazy?: boolean;
  budgetBytes?: number;
}

/** A file changed between planning and reading in a way that breaks what was announced (it shrank). */
export class ContextChangedError extends ContextReadError {
  constructor(readonly path: string, readonly expected: number, readonly got: number) {
    super(`${path} changed while it was read: it held ${got} of the ${expected} bytes it had a moment before. Ask again once it is stable.`);
  }
}

/**
 * Refuses, before anything is sent, a source that cannot be bound: over the limit, or files without a
 * path or listed twice. Binding starts by clearing the REPL's namespace, so this comes first.
 */
export function checkContext(source: ContextSource, limitBytes: number): void {
  if (source.kind === 'plan') {
    // A lazy plan is listed, not read: its size was checked against the list limit when planned.
    if (source.plan.lazy) return;
    // A compressed file's size is an estimate until it is counted, which refuses it past the limit.
    const only = source.plan.files[0];
    if (source.plan.shape === 'text' && only && isCompressed(only) && !only.exact) return;
    const limit = Math.min(limitBytes, source.plan.maxTotalBytes);
    if (source.plan.totalBytes > limit) throw new ContextTooLargeError(source.plan.totalBytes, limit);
    return;
  }
  const entries = source.kind === 'text' ? [{ path: source.label ?? '', content: source.text }] : source.files;
  let total = 0;
  const seen = new Set<string>();
  for (const entry of entries) {
    if (source.kind === 'files') {
      if (typeof entry.path !== 'string' || entry.path === '') throw new InvalidContextError('every context file needs a non-empty path');
      if (seen.has(entry.path)) throw new InvalidContextError(`context lists the file ${entry.path} twice`, entry.path);
      seen.add(entry.path);
    }
    total += byteLengthOf(entry.content);
  }
  if (total > limitBytes) throw new ContextTooLargeError(total, limitBytes);
}

export async function streamContext(source: ContextSource, sink: ContextSink, limitBytes: number, signal?: AbortSignal): Promise<StreamedContext> {
  checkContext(source, limitBytes);
  const out = source.kind === 'plan' ? await streamPlan(source.plan, sink, limitBytes, signal) : await streamGiven(source, sink, signal);
  // The end of every bind: what the input is (known only now for a PDF's pages without text), which
  // Python adds to context_meta(), then the end frame. A constant few hundred bytes.
  await sink.write(Buffer.concat([formatFrame(out.format, out.shape), frameHead('E', 0)]));
  return out;
}

/** Texts the caller holds: one text, or files one frame each. */
async function streamGiven(source: Exclude<ContextSource, { kind: 'plan' }>, sink: ContextSink, signal?: AbortSignal): Promise<StreamedContext> {
  const entries = source.kind === 'text' ? [{ path: source.label ?? '', content: source.text }] : source.files;
  const out = newStreamed(source.kind === 'text' ? 'str' : 'dict');
  for (const entry of entries) {
    signal?.throwIfAborted();
    const bytes = byteLengthOf(entry.content);
    await sink.write(frameHead(source.kind === 'text' ? 'T' : 'F', bytes, source.kind === 'text' ? undefined : entry.path));
    await writeContent(sink, entry.content, (piece) => keepPrefix(out, piece));
    out.entries.push({ path: entry.path, bytes });
    out.byteLength += bytes;
  }
  if (source.kind === 'text' && source.notebook) out.format = { notebook: source.notebook.summary };
  if (source.kind === 'files' && source.format) out.format = source.format;
  return out;
}

async function streamPlan(plan: ContextPlan, sink: ContextSink, limitBytes: number, signal?: AbortSignal): Promise<StreamedContext> {
  const streamed = await streamPlanEntries(plan, sink, limitBytes, signal);
  if (plan.format) streamed.format = withFolderPdfFacts(withPageFacts(plan.format, streamed.lazy ? [] : streamed.entries), plan.files);
  return streamed;
}

async function streamPlanEntries(plan: ContextPlan, sink: ContextSink, limitBytes: number, signal?: AbortSignal): Promise<StreamedContext> {
  const limit = Math.min(limitBytes, plan.maxTotalBytes);
  if (plan.lazy) return streamListing(plan, sink, limit, signal);
  if (plan.shape === 'text') return streamFile(plan, sink, limit, signal);
  const out = newStreamed('dict');
  // Small files are read straight into the batch of frames that is written when full: no copy per file,
  // and no trip through the event loop per file (for 20,000 files, either cost more than the reading).
  const batch = new FrameBatch(sink);
  const slicer = new TimeSlicer();
  let scratch: Uint8Array | undefined;
  for (const file of plan.files) {
    await slicer.yieldIfDue();
    signal?.throwIfAborted();
    const headLength = FRAME_HEAD_BYTES + Buffer.byteLength(file.path, 'utf8');
    // Room for the planned size and one byte more, so that a file that grew shows as not fitting.
    const fits = headLength + file.bytes + 1 <= STREAM_CHUNK_BYTES;
    if (fits && batch.room < headLength + file.bytes + 1) await batch.flush();
    let data: Uint8Array | undefined;
    let inPlace = false;
    let read: ReturnType<typeof readPlannedInto> | undefined;
    if (isNotebookFile(file)) {
      // Converted on its own, up to the per-file limit (which holds for the notebook's text).
      scratch ??= new Uint8Array(plan.maxFileBytes + 1);
      read = await readAnyPlannedInto(file, scratch);
      if (read.kind === 'full') read = { kind: 'skipped', skipped: { path: file.path, reason: 'too-large', bytes: scratch.length, detail: 'the notebook as text' } };
      if (read.kind === 'read') data = scratch.subarray(0, read.length);
    } else if (isCompressed(file)) {
      // Decoded on its own, up to the per-file limit (which holds for the decompressed bytes).
      scratch ??= new Uint8Array(plan.maxFileBytes + 1);
      read = await readCompressedInto(file, scratch);
      if (read.kind === 'full') read = { kind: 'skipped', skipped: { path: file.path, reason: 'too-large', bytes: scratch.length, detail: `decompressed (${file.compression})` } };
      if (read.kind === 'read') data = scratch.subarray(0, read.length);
    } else if (isPdfDocument(file)) {
      // A folder's PDF: parsed in its worker now, its pages' text up to the per-file limit.
      scratch ??= new Uint8Array(plan.maxFileBytes + 1);
      read = await readAnyPlannedInto(file, scratch);
      if (read.kind === 'full') read = { kind: 'skipped', skipped: { path: file.path, reason: 'too-large', bytes: scratch.length, detail: 'the PDF as text' } };
      if (read.kind === 'read') data = scratch.subarray(0, read.length);
    } else if (isPdfPage(file)) {
      // Extracted by the document's worker, up to the per-page limit.
      scratch ??= new Uint8Array(plan.maxFileBytes + 1);
      read = await readPdfPageInto(file, scratch);
      if (read.kind === 'full') read = { kind: 'skipped', skipped: { path: file.path, reason: 'too-large', bytes: scratch.length, detail: 'extracted text' } };
      if (read.kind === 'read') data = scratch.subarray(0, read.length);
    } else if (fits) {
      const target = batch.spare(headLength, plan.maxFileBytes + 1);
      read = readPlannedInto(file, target);
      if (read.kind === 'read') {
        data = target.subarray(0, read.length);
        inPlace = true;
      }
    }
    if (!read || read.kind === 'full') {
      // A large file, or one that grew past its room: read on its own, up to the per-file limit.
      scratch ??= new Uint8Array(plan.maxFileBytes + 1);
      read = readPlannedInto(file, scratch);
      if (read.kind === 'full') read = { kind: 'skipped', skipped: { path: file.path, reason: 'too-large', bytes: Math.max(scratch.length, file.bytes) } };
      if (read.kind === 'read') data = scratch.subarray(0, read.length);
    }
    if (read.kind === 'skipped' || !data) {
      if (read.kind === 'skipped') out.leftOut.push(read.skipped);
      continue;
    }
    const bytes = data.byteLength;
    if (out.byteLength + bytes > limit) {
      await batch.add(frameHead('A', 0));
      await batch.flush();
      throw new ContextTooLargeError(out.byteLength + bytes, limit, [], true);
    }
    if (out.entries.length === 0) keepPrefix(out, data);
    out.entries.push({ path: file.path, bytes });
    out.byteLength += bytes;
    if (inPlace) batch.commitFile(file.path, bytes);
    else await batch.add(frameHead('F', bytes, file.path), data);
  }
  await batch.flush();
  return out;
}

/**
 * A lazy bind: the settings, then one 'L' frame per file (its path and planned size), no contents. The
 * REPL keeps at most `budgetBytes` of texts, the eager limit: what it would have held for an eager bind.
 */
async function streamListing(plan: ContextPlan, sink: ContextSink, budgetBytes: number, signal?: AbortSignal): Promise<StreamedContext> {
  const out = newStreamed('dict');
  out.lazy = true;
  out.budgetBytes = budgetBytes;
  const batch = new FrameBatch(sink);
  const settings = Buffer.from(JSON.stringify({ budgetBytes }), 'utf8');
  await batch.add(frameHead('Z', settings.byteLength), settings);
  const size = Buffer.allocUnsafe(4);
  const slicer = new TimeSlicer();
  for (const file of plan.files) {
    await slicer.yieldIfDue();
    signal?.throwIfAborted();
    size.writeUInt32LE(Math.min(file.bytes, 0xffff_ffff), 0);
    await batch.add(frameHead('L', 4, file.path), size);
    out.entries.push({ path: file.path, bytes: file.bytes });
    out.byteLength += file.bytes;
  }
  out.prefixBytes = plan.head.subarray(0, PREFIX_BYTES);
  await batch.flush();
  return out;
}

/** Frames copied into one reused buffer and written when it is full; large data is written on its own. */
class FrameBatch {
  private readonly buffer = Buffer.allocUnsafe(STREAM_CHUNK_BYTES);
  private used = 0;

  constructor(private readonly sink: ContextSink) {}

  get room(): number {
    return this.buffer.length - this.used;
  }

  /** Where a file's data may be read in place: after room for its head, at most `max` bytes. */
  spare(headLength: number, max: number): Uint8Array {
    const start = this.used + headLength;
    return this.buffer.subarray(start, Math.min(this.buffer.length, start + max));
  }

  /** Takes a file whose `bytes` were read in place (spare()): its head is written before them. */
  commitFile(path: string, bytes: number): void {
    const headLength = writeFrameHead(this.buffer, this.used, 'F', bytes, path);
    if (headLength < 0) throw new RangeError('a frame head did not fit the room spare() left for it');
    this.used += headLength + bytes;
  }

  /** `data` may be a view into a buffer the caller reuses: it is copied or written before this resolves. */
  async add(head: Uint8Array, data?: Uint8Array): Promise<void> {
    const size = head.byteLength + (data?.byteLength ?? 0);
    if (this.used + size > this.buffer.length) await this.flush();
    if (size > this.buffer.length) {
      await this.sink.write(head);
      if (data) await writeContent(this.sink, data, () => undefined);
      return;
    }
    this.buffer.set(head, this.used);
    this.used += head.byteLength;
    if (data) {
      this.buffer.set(data, this.used);
      this.used += data.byteLength;
    }
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    const piece = this.buffer.subarray(0, this.used);
    this.used = 0;
    await this.sink.write(piece);
  }
}

/**
 * One file, as large as the limit allows, in pieces from disk. Exactly the planned size is sent: a file
 * that grew is read up to the size it had when planned (a snapshot of a log being written); one that
 * shrank cannot deliver what was announced, so the bind is aborted.
 */
async function streamFile(plan: ContextPlan, sink: ContextSink, limit: number, signal?: AbortSignal): Promise<StreamedContext> {
  const file = plan.files[0]!;
  if (isCompressed(file)) return streamCompressedFile(file, sink, limit, signal);
  if (isNotebookFile(file)) return streamNotebookFile(file, sink, limit);
  const out = newStreamed('str');
  const handle = await open(file.abs, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new ContextReadError(`${file.path} is no longer a regular file`);
    await sink.write(frameHead('T', file.bytes));
    // One buffer, reused: each write resolves once the pipe has taken the bytes, so nothing of the
    // file accumulates here however large it is.
    const piece = Buffer.allocUnsafe(Math.min(STREAM_CHUNK_BYTES, Math.max(1, file.bytes)));
    let sent = 0;
    while (sent < file.bytes) {
      signal?.throwIfAborted();
      const { bytesRead } = await handle.read(piece, 0, Math.min(piece.length, file.bytes - sent), sent);
      if (bytesRead === 0) {
        // Keep the frame stream whole (the REPL expects the announced bytes), then call the bind off.
        piece.fill(0);
        for (let left = file.bytes - sent; left > 0; left -= piece.length) await sink.write(piece.subarray(0, Math.min(left, piece.length)));
        await sink.write(frameHead('A', 0));
        throw new ContextChangedError(file.path, file.bytes, sent);
      }
      const chunk = piece.subarray(0, bytesRead);
      keepPrefix(out, chunk);
      await sink.write(chunk);
      sent += bytesRead;
    }
  } finally {
    await handle.close();
  }
  out.entries.push({ path: file.path, bytes: file.bytes });
  out.byteLength = file.bytes;
  return out;
}

/**
 * A compressed file named alone: a `str` announces its size before its text, so the file is decoded
 * twice, once to count (refusing a bomb or a text past the limit before a byte is sent; skipped when
 * the plan decoded it whole) and once to send, piece by piece: memory stays at a block whatever the
 * size. A file that decodes differently the second time (replaced meanwhile) aborts the bind.
 */
async function streamCompressedFile(file: PlannedFile & { compression: Compression }, sink: ContextSink, limit: number, signal?: AbortSignal): Promise<StreamedContext> {
  const out = newStreamed('str');
  const bytes = await countCompressed(file, limit, signal);
  await sink.write(frameHead('T', bytes));
  let sent = 0;
  const read = await readCompressed(file.abs, file.compression, { maxBytes: bytes, ...(signal ? { signal } : {}) }, async (piece) => {
    keepPrefix(out, piece);
    sent += piece.byteLength;
    await sink.write(piece);
  });
  if (read.kind !== 'done' || sent !== bytes) {
    const zeros = Buffer.alloc(Math.min(STREAM_CHUNK_BYTES, Math.max(1, bytes - sent)));
    for (let left = bytes - sent; left > 0; left -= zeros.length) await sink.write(zeros.subarray(0, Math.min(left, zeros.length)));
    await sink.write(frameHead('A', 0));
    throw new ContextChangedError(file.path, bytes, sent);
  }
  out.entries.push({ path: file.path, bytes });
  out.byteLength = bytes;
  return out;
}

/**
 * A notebook named alone: converted again as it reads now (it was read whole when planned) and sent as
 * one text. Converted before anything is written, so a notebook broken or grown past the limit since is
 * refused with nothing sent.
 */
async function streamNotebookFile(file: PlannedFile, sink: ContextSink, limit: number): Promise<StreamedContext> {
  const out = newStreamed('str');
  const text = Buffer.from((await notebookOfNamedFile(file.path, file.abs)).text, 'utf8');
  if (text.byteLength > limit) throw new ContextTooLargeError(text.byteLength, limit, [{ path: file.path, bytes: text.byteLength }]);
  await sink.write(frameHead('T', text.byteLength));
  await writeContent(sink, text, (piece) => keepPrefix(out, piece));
  out.entries.push({ path: file.path, bytes: text.byteLength });
  out.byteLength = text.byteLength;
  return out;
}

function newStreamed(shape: 'str' | 'dict'): StreamedContext {
  return { shape, entries: [], byteLength: 0, prefixBytes: new Uint8Array(0), leftOut: [] };
}

function keepPrefix(out: StreamedContext, piece: Uint8Array): void {
  if (out.entries.length > 0 || out.prefixBytes.byteLength >= PREFIX_BYTES) return;
  const room = PREFIX_BYTES - out.prefixBytes.byteLength;
  out.prefixBytes = Buffer.concat([out.prefixBytes, piece.subarray(0, room)]);
}

function byteLengthOf(content: Uint8Array | string): number {
  return typeof content === 'string' ? Buffer.byteLength(content, 'utf8') : content.byteLength;
}

/** Writes text or bytes in pieces; a long string is encoded a piece at a time, never whole. */
async function writeContent(sink: ContextSink, content: Uint8Array | string, seen: (piece: Uint8Array) => void): Promise<void> {
  if (typeof content !== 'string') {
    for (let at = 0; at < content.byteLength; at += STREAM_CHUNK_BYTES) {
      const piece = content.subarray(at, Math.min(content.byteLength, at + STREAM_CHUNK_BYTES));
      seen(piece);
      await sink.write(piece);
    }
    return;
  }
  // A quarter of the chunk in UTF-16 units fits a chunk of UTF-8.
  for (const piece of utf8Chunks(content, STREAM_CHUNK_BYTES / 4)) {
    seen(piece);
    await sink.write(piece);
  }
}
