// Reads the files of a ContextPlan in the plan's order, with the checks a plan cannot make without
// reading: a file that is binary by content, that grew past its limit, or that was swapped for a link or
// a device since the walk looked at it. Reads are synchronous into one reused buffer, in time slices (see
// localFileReadSync.ts for why). Used both to stream a plan into the REPL and to read one into memory.
import { hasNulByte } from './binaryDetection';
import { ContextTooLargeError, NoReadableFilesError } from './contextErrors';
import type { ContextFile, ContextPlan, ContextSource, PlannedFile, TargetDescription } from './contextTypes';
import { nodeContextFs } from './contextPlan';
import type { ContextFs } from './contextPlan';
import { countCompressed, isCompressed, readCompressedInto } from './compressedPlan';
import { isNotebookFile, notebookOfNamedFile, readNotebookInto } from './notebookRead';
import { isPdfPage, readPdfPageInto } from './pdfPlan';
import { isPdfDocument, readPdfDocumentInto } from './pdfInFolder';
import { TimeSlicer } from './timeSlicer';
import { swappedSkip } from './swappedFile';

type Skipped = TargetDescription['skipped'][number];

type PlannedRead = { kind: 'read'; bytes: Uint8Array } | { kind: 'skipped'; skipped: Skipped };

/**
 * Reads the planned files one after another, handing each to `each` as a view into a buffer that is
 * reused for the next file (copy what you keep). Skipped files come with their reason.
 */
async function readPlannedFiles(plan: ContextPlan, each: (read: PlannedRead, file: PlannedFile) => void | Promise<void>, fs: ContextFs = nodeContextFs): Promise<void> {
  const scratch = new Uint8Array(plan.maxFileBytes + 1);
  const slicer = new TimeSlicer();
  for (const file of plan.files) {
    await slicer.yieldIfDue();
    // Awaited only when the caller had to wait (a full batch): a promise per small file adds up.
    const one = readOne(file, scratch, fs);
    const pending = each(one instanceof Promise ? await one : one, file);
    if (pending) await pending;
  }
}

/**
 * Reads a planned file into `into` (a view the caller chose: a scratch buffer, or straight into the
 * frames being sent). `full` means the file did not fit: it grew, or `into` was smaller than the
 * per-file limit; the caller decides whether that is too large. With `within` (the real paths of what
 * the user named), the open descriptor itself must be a regular file lying inside one of them: what a
 * cell asks for is checked at read time, not at the walk.
 */
export function readPlannedInto(file: PlannedFile, into: Uint8Array, fs: ContextFs = nodeContextFs, within?: readonly string[]): { kind: 'read'; length: number } | { kind: 'full' } | { kind: 'skipped'; skipped: Skipped } {
  let read;
  try {
    // The walk saw a regular file here (lstat); O_NOFOLLOW and the bounded read hold it to that.
    read = fs.readInto(file.abs, into, { noFollow: true, plannedBytes: file.bytes, ...(within ? { within } : {}) });
  } catch {
    return { kind: 'skipped', skipped: { path: file.path, reason: 'unreadable' } };
  }
  switch (read.kind) {
    case 'special':
    case 'link':
    case 'outside':
      return swappedSkip(file.path, read);
    case 'too-large':
      return { kind: 'full' };
    case 'read':
      // Binary names were left out by the walk; what is left to check is the content.
      if (hasNulByte(into.subarray(0, read.length))) return { kind: 'skipped', skipped: { path: file.path, reason: 'binary', bytes: read.length } };
      return { kind: 'read', length: read.length };
  }
}

/**
 * readPlannedInto for any planned file: a compressed one is decoded (asynchronously), a plain one read
 * as before. For the call sites that may await; the plain path stays synchronous for speed elsewhere.
 */
export async function readAnyPlannedInto(file: PlannedFile, into: Uint8Array, fs: ContextFs = nodeContextFs, within?: readonly string[]): Promise<ReturnType<typeof readPlannedInto>> {
  if (isNotebookFile(file)) return readNotebookInto(file, into, within);
  // A PDF page comes from the document read once when planned (its bytes held by its worker), not from the file again.
  if (isPdfPage(file)) return readPdfPageInto(file, into);
  if (isPdfDocument(file)) return readPdfDocumentInto(file, into, within);
  return isCompressed(file) ? readCompressedInto(file, into, within) : readPlannedInto(file, into, fs, within);
}

function readOne(file: PlannedFile, scratch: Uint8Array, fs: ContextFs): PlannedRead | Promise<PlannedRead> {
  if (isCompressed(file)) return readCompressedInto(file, scratch).then((read) => fromRead(file, scratch, read));
  if (isNotebookFile(file)) return readNotebookInto(file, scratch).then((read) => fromRead(file, scratch, read));
  if (isPdfPage(file)) return readPdfPageInto(file, scratch).then((read) => fromRead(file, scratch, read));
  if (isPdfDocument(file)) return readPdfDocumentInto(file, scratch).then((read) => fromRead(file, scratch, read));
  return fromRead(file, scratch, readPlannedInto(file, scratch, fs));
}

function fromRead(file: PlannedFile, scratch: Uint8Array, read: ReturnType<typeof readPlannedInto>): PlannedRead {
  if (read.kind === 'skipped') return read;
  // The scratch holds the per-file limit and one byte more: full means over the limit.
  if (read.kind === 'full') return { kind: 'skipped', skipped: { path: file.path, reason: 'too-large', bytes: Math.max(scratch.length, file.bytes) } };
  return { kind: 'read', bytes: scratch.subarray(0, read.length) };
}

/** Reads a whole plan into memory: the ContextSource of readPathsAsContext, for callers that keep it. */
export async function readPlanInMemory(plan: ContextPlan, fs: ContextFs = nodeContextFs): Promise<{ source: ContextSource; target: TargetDescription }> {
  if (plan.shape === 'text') {
    // A single file was checked (binary, special) when planned; its size bounds the read.
    const file = plan.files[0]!;
    if (isNotebookFile(file)) {
      const notebook = await notebookOfNamedFile(file.path, file.abs);
      const text = Buffer.from(notebook.text, 'utf8');
      if (text.byteLength > plan.maxTotalBytes) throw new ContextTooLargeError(text.byteLength, plan.maxTotalBytes, [{ path: file.path, bytes: text.byteLength }]);
      return { source: { kind: 'text', text, label: file.path, notebook: { cells: notebook.cells, summary: notebook.summary } }, target: { ...plan.target, totalBytes: text.byteLength } };
    }
    if (isCompressed(file)) {
      const exact = await countCompressed(file, plan.maxTotalBytes);
      const into = new Uint8Array(exact + 1);
      const read = await readCompressedInto(file, into, undefined, true);
      if (read.kind !== 'read' || read.length !== exact) throw new NoReadableFilesError(plan.target.paths, 1);
      const text = Buffer.from(into.buffer, 0, read.length);
      return { source: { kind: 'text', text, label: file.path }, target: { ...plan.target, totalBytes: text.byteLength } };
    }
    const into = new Uint8Array(plan.maxTotalBytes + 1);
    const read = fs.readInto(file.abs, into);
    if (read.kind === 'too-large') {
      const seen = Math.max(read.bytesSeen, read.statBytes);
      throw new ContextTooLargeError(seen, plan.maxTotalBytes, [{ path: file.path, bytes: seen }], read.bytesSeen > read.statBytes);
    }
    if (read.kind !== 'read') throw new NoReadableFilesError(plan.target.paths, 1);
    const text = Buffer.from(into.subarray(0, read.length));
    return { source: { kind: 'text', text, label: file.path }, target: { ...plan.target, totalBytes: text.byteLength } };
  }
  const files: ContextFile[] = [];
  const skipped = [...plan.target.skipped];
  let total = 0;
  await readPlannedFiles(
    plan,
    (read, file) => {
      if (read.kind === 'skipped') {
        skipped.push(read.skipped);
        return;
      }
      total += read.bytes.byteLength;
      // A file may have grown since the walk: the total still holds.
      if (total > plan.maxTotalBytes) throw new ContextTooLargeError(total, plan.maxTotalBytes, [], true);
      files.push({ path: file.path, content: Buffer.from(read.bytes) });
    },
    fs,
  );
  if (files.length === 0) throw new NoReadableFilesError(plan.target.paths, skipped.length);
  return { source: { kind: 'files', files }, target: { ...plan.target, totalBytes: total, fileCount: files.length, skipped } };
}
