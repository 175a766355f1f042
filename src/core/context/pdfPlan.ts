// A PDF named alone becomes a dict of its pages: `context["design.pdf#page=18"]` is page 18's text, so
// references name the page (`design.pdf#page=18:3`) and a 1,000-page document can be bound lazily, a
// page extracted when it is read, as a large folder is. Planning opens the document (in its worker,
// pdfDocument.ts) for its page count and extracts page 1 for the prefix: the root's first request then
// goes out while the other pages are extracted and bound.
import { realpathSync } from 'node:fs';
import type { ContextPlan, InputFormat, PdfPageRef, PlannedFile, TargetDescription } from './contextTypes';
import { BINARY_SNIFF_BYTES } from './binaryDetection';
import { newPdfSession, openPdf, pdfPageText } from './pdfDocument';
import type { PdfLimits } from './pdfDocument';
import { PdfReadError } from './pdfErrors';
import { describePageRanges, pdfPageKey } from './pdfPages';

/** A document with more pages than this is bound lazily whatever its size: pages are extracted when read. */
const PDF_LAZY_PAGES = 200;
/** A page's text up to this many bytes is read; more is cut (the per-page limit of the dict). */
const PAGE_MAX_BYTES = 4 * 1024 * 1024;
/** Planned size of a page before it is read, at least (an empty first page says little about the rest). */
const MIN_PAGE_ESTIMATE = 1024;

interface PdfPlanOptions {
  workerPath?: string;
  limits?: Partial<PdfLimits>;
}

type Skipped = TargetDescription['skipped'][number];

const encoder = new TextEncoder();

/** The plan of a PDF named alone (size checked by the caller against the limit). */
export async function planPdfFile(shown: string, abs: string, storedBytes: number, maxTotalBytes: number, options: PdfPlanOptions = {}): Promise<ContextPlan> {
  const session = newPdfSession();
  const open = { maxFileBytes: maxTotalBytes, ...options };
  const doc = await openPdf(shown, abs, session, open);
  const first = await pdfPageText(shown, abs, session, 1, open);
  const head = encoder.encode(first.text).subarray(0, BINARY_SNIFF_BYTES);
  const estimate = Math.max(MIN_PAGE_ESTIMATE, encoder.encode(first.text).byteLength);
  const files: PlannedFile[] = [];
  for (let page = 1; page <= doc.pages; page++) files.push({ path: pdfPageKey(shown, page), abs, bytes: estimate, storedBytes, pdf: { page, session } });
  const totalBytes = estimate * doc.pages;
  const lazy = doc.pages > PDF_LAZY_PAGES || totalBytes > maxTotalBytes;
  return {
    shape: 'files',
    files,
    head,
    totalBytes,
    maxFileBytes: Math.min(PAGE_MAX_BYTES, maxTotalBytes),
    maxTotalBytes,
    ...(lazy ? { lazy: { listLimitBytes: Math.max(totalBytes, maxTotalBytes), roots: [realpathSync.native(abs)] } } : {}),
    // One file was pointed at (the view's "About file design.pdf (1 file, …)"); its pages are the format's to count.
    target: { kind: 'file', paths: [shown], totalBytes, fileCount: 1, skipped: [] },
    format: { pdf: { pages: doc.pages } },
  };
}

/** True for a planned page of a PDF. */
export function isPdfPage(file: PlannedFile): file is PlannedFile & { pdf: PdfPageRef } {
  return file.pdf !== undefined;
}

/** The shown name of the PDF a page key belongs to. */
function documentOf(file: PlannedFile): string {
  const at = file.path.lastIndexOf('#page=');
  return at > 0 ? file.path.slice(0, at) : file.path;
}

/** A page's text, with a last line saying so when it was cut at the per-page limit. */
export async function pdfPageString(file: PlannedFile & { pdf: PdfPageRef }): Promise<string> {
  const read = await pdfPageText(documentOf(file), file.abs, file.pdf.session, file.pdf.page, { maxFileBytes: file.storedBytes ?? Number.MAX_SAFE_INTEGER });
  return read.truncated ? `${read.text}\n[the text of this page was cut here: it is longer than RLM reads from one page]` : read.text;
}

/**
 * Extracts a planned page into `into` (as readPlannedInto reads a file): `full` when it does not fit,
 * skipped with the sentence of what went wrong (a page pdf.js cannot parse, a document that timed out).
 */
export async function readPdfPageInto(file: PlannedFile & { pdf: PdfPageRef }, into: Uint8Array): Promise<{ kind: 'read'; length: number } | { kind: 'full' } | { kind: 'skipped'; skipped: Skipped }> {
  let text: string;
  try {
    text = await pdfPageString(file);
  } catch (error) {
    const detail = error instanceof PdfReadError ? error.message : String(error);
    return { kind: 'skipped', skipped: { path: file.path, reason: 'unreadable', detail } };
  }
  // A page of spaces is a page without text, as the metadata counts them.
  if (text.trim() === '') text = '';
  const { read, written } = encoder.encodeInto(text, into);
  if (read < text.length || written >= into.length) return { kind: 'full' };
  return { kind: 'read', length: written };
}

/** The metadata's PDF facts once pages were read: which had no text (constant size), which were cut. */
export function withPageFacts(format: InputFormat, read: ReadonlyArray<{ path: string; bytes: number }>): InputFormat {
  if (!format.pdf) return format;
  const textless: number[] = [];
  for (const entry of read) {
    if (entry.bytes > 0) continue;
    const at = entry.path.lastIndexOf('#page=');
    const page = at > 0 ? Number(entry.path.slice(at + 6)) : NaN;
    if (Number.isInteger(page)) textless.push(page);
  }
  if (textless.length === 0) return format;
  return { ...format, pdf: { ...format.pdf, textlessPages: describePageRanges(textless), textlessCount: textless.length } };
}
