// A PDF found inside a folder: one entry of the dict, `docs/design.pdf`, whose text is the document's
// pages in order, each under a marker line (`<<< page 18 of 40 >>>`), so a line of page 18 is cited as
// `docs/design.pdf#page=18:3` (line 3 of that page's text, counted after its marker) as for a PDF named
// alone. The walk only lists the file: a folder of a hundred PDFs costs nothing until `context[...]`,
// search() or a citation first needs one, and then it is parsed in the PDF worker with its limits
// (pdfDocument.ts). A document that cannot be read (encrypted, damaged, too slow) is left out with the
// reason, the rest of the folder is read.
import type { InputFormat, PlannedFile, TargetDescription } from './contextTypes';
import { openRegularFile } from './localFileRead';
import { openPdf, pdfPageText } from './pdfDocument';
import type { PdfLimits } from './pdfDocument';
import { PdfReadError } from './pdfErrors';
import { parsePdfPageKey } from './pdfPages';
import { swappedSkip } from './swappedFile';
import type { SwappedRead } from './swappedFile';

type Skipped = TargetDescription['skipped'][number];

/** A planned PDF of a folder, read whole as its text form. */
export type PlannedPdfDocument = PlannedFile & { pdfText: NonNullable<PlannedFile['pdfText']> };

export function isPdfDocument(file: PlannedFile): file is PlannedPdfDocument {
  return file.pdfText !== undefined;
}

/** What reading a folder's PDF found, for the metadata: how many pages, which without text. */
interface PdfDocumentFacts {
  pages: number;
  textless: number[];
}

interface PdfTextForm extends PdfDocumentFacts {
  text: string;
  /** 1-based line of each page's marker (index 0: page 1); a page's line L is markerLine + L. */
  markerLines: number[];
}

/** Facts of the documents read so far, by planned file (kept only while the plan is). */
const factsRead = new WeakMap<PlannedFile, PdfDocumentFacts>();

/** The marker line above a page's text (one line, so line numbers within the page stay those of the single-file case). */
function pageMarker(page: number, pages: number, note?: string): string {
  return `<<< page ${page} of ${pages}${note ? `: ${note}` : ''} >>>`;
}

interface TextFormOptions {
  /** The text stops growing past this many bytes (the per-file limit); the result then says `full`. */
  maxBytes: number;
  /** The file on disk may be at most this large. */
  maxStoredBytes: number;
  limits?: Partial<PdfLimits>;
  workerPath?: string;
}

/**
 * The document's text form, page after page through its worker. A page pdf.js cannot parse is said in
 * its marker and the others are read; a failure of the whole document (encrypted, damaged, a page that
 * took too long) is thrown as the PdfReadError that names it. `full` when the text passed `maxBytes`.
 */
async function pdfTextForm(file: PlannedPdfDocument, options: TextFormOptions): Promise<PdfTextForm | 'full'> {
  const open = { maxFileBytes: options.maxStoredBytes, ...(options.limits ? { limits: options.limits } : {}), ...(options.workerPath ? { workerPath: options.workerPath } : {}) };
  const session = file.pdfText.session;
  const doc = await openPdf(file.path, file.abs, session, open);
  const parts: string[] = [];
  const markerLines: number[] = [];
  const textless: number[] = [];
  let line = 1;
  let bytes = 0;
  for (let page = 1; page <= doc.pages; page++) {
    let body: string;
    let note: string | undefined;
    try {
      const read = await pdfPageText(file.path, file.abs, session, page, open);
      body = read.text.trim() === '' ? '' : read.text.replace(/\n$/, '');
      if (read.truncated) body += '\n[the text of this page was cut here: it is longer than RLM reads from one page]';
      if (body === '') note = 'no text (scanned or images only)';
    } catch (error) {
      // One page pdf.js cannot parse leaves the others readable; anything worse ends the document.
      if (!(error instanceof PdfReadError) || error.reason !== 'malformed') throw error;
      body = '';
      note = 'could not be read';
    }
    if (body === '') textless.push(page);
    const block = `${pageMarker(page, doc.pages, note)}\n${body === '' ? '' : `${body}\n`}`;
    bytes += Buffer.byteLength(block, 'utf8');
    if (bytes > options.maxBytes) return 'full';
    markerLines.push(line);
    line += 1 + (body === '' ? 0 : body.split('\n').length);
    parts.push(block);
  }
  const facts = { pages: doc.pages, textless };
  factsRead.set(file, facts);
  return { text: parts.join(''), markerLines, ...facts };
}

/**
 * Reads a folder's PDF as its text form into `into` (as readPlannedInto reads a plain file): `full`
 * when it does not fit; a document that cannot be read is skipped with the sentence that says why, and
 * one swapped for a link, a device or a file elsewhere since the walk is skipped as any other file is.
 */
export async function readPdfDocumentInto(file: PlannedPdfDocument, into: Uint8Array, within?: readonly string[]): Promise<{ kind: 'read'; length: number } | { kind: 'full' } | { kind: 'skipped'; skipped: Skipped }> {
  let form: PdfTextForm | 'full';
  try {
    const swapped = await swappedSince(file, within);
    if (swapped) return swappedSkip(file.path, swapped);
    form = await pdfTextForm(file, { maxBytes: into.length - 1, maxStoredBytes: file.pdfText.maxStoredBytes });
  } catch (error) {
    const detail = error instanceof PdfReadError ? error.message : undefined;
    return { kind: 'skipped', skipped: { path: file.path, reason: 'unreadable', ...(detail ? { detail } : {}) } };
  }
  if (form === 'full') return { kind: 'full' };
  const { read, written } = new TextEncoder().encodeInto(form.text, into);
  if (read < form.text.length || written >= into.length) return { kind: 'full' };
  return { kind: 'read', length: written };
}

/**
 * How the file at the planned path is no longer the regular file the walk saw, or undefined when it
 * still is. The worker reads the file by its name (pdfDocument.ts), so what the name leads to now is
 * checked first, as for every read in a folder: no link at the last step, a regular file, inside `within`.
 */
async function swappedSince(file: PlannedFile, within?: readonly string[]): Promise<SwappedRead | undefined> {
  const opened = await openRegularFile(file.abs, { noFollow: true, ...(within ? { within } : {}) });
  if (opened.kind !== 'open') return opened;
  await opened.handle.close();
  return undefined;
}

/** The text form of a folder's PDF read again after the run (citations, coverage), with the checks of binding. */
export async function rereadPdfTextForm(file: PlannedPdfDocument, maxBytes: number): Promise<PdfTextForm | undefined> {
  try {
    if (await swappedSince(file)) return undefined;
    const form = await pdfTextForm(file, { maxBytes, maxStoredBytes: file.pdfText.maxStoredBytes });
    return form === 'full' ? undefined : form;
  } catch {
    return undefined;
  }
}

/** One page's text of a folder's PDF read again (a citation of `docs/design.pdf#page=18`); undefined when it cannot be. */
export async function rereadPdfPage(file: PlannedPdfDocument, page: number): Promise<string | undefined> {
  try {
    if (await swappedSince(file)) return undefined;
    const read = await pdfPageText(file.path, file.abs, file.pdfText.session, page, { maxFileBytes: file.pdfText.maxStoredBytes });
    return read.text.trim() === '' ? '' : read.text.replace(/\n$/, '');
  } catch {
    return undefined;
  }
}

/** The page text of `docs/design.pdf#page=18` when `docs/design.pdf` is a PDF of the folder, for citations. */
export function folderPageOf(path: string, documents: ReadonlyMap<string, PlannedPdfDocument>): { document: PlannedPdfDocument; page: number } | undefined {
  const key = parsePdfPageKey(path);
  const document = key ? documents.get(key.file) : undefined;
  return key && document ? { document, page: key.page } : undefined;
}

/** The folder metadata's word on its PDFs: how many, and the pages of those read so far. */
export function folderPdfFacts(files: readonly PlannedFile[]): { files: number; read: number; pages: number; textlessPages: number } | undefined {
  let count = 0;
  let read = 0;
  let pages = 0;
  let textlessPages = 0;
  for (const file of files) {
    if (!isPdfDocument(file)) continue;
    count++;
    const facts = factsRead.get(file);
    if (!facts) continue;
    read++;
    pages += facts.pages;
    textlessPages += facts.textless.length;
  }
  return count ? { files: count, read, pages, textlessPages } : undefined;
}

/** The format with the folder's PDF facts as they are now (after an eager bind, every PDF was read). */
export function withFolderPdfFacts(format: InputFormat, files: readonly PlannedFile[]): InputFormat {
  if (!format.pdfs) return format;
  const pdfs = folderPdfFacts(files);
  return pdfs ? { ...format, pdfs } : format;
}
