// Read-only documents for references whose file is not text as stored: a page of a PDF (its extracted
// text, when no PDF viewer is installed to open the page itself) and a line of a compressed log (the
// decompressed text around it, since the editor would show the compressed bytes as binary). Both are
// produced on the host from the file as it is now, with the limits of reading it as `context`.
import * as vscode from 'vscode';
import { LineWindowCollector } from '../../core/citations/lineWindowCollector';
import type { Compression } from '../../core/context/compressedFormats';
import { readCompressed } from '../../core/context/compressedRead';
import { newPdfSession, pdfPageText } from '../../core/context/pdfDocument';
import { derivedViews, unknownViewText } from './derivedViewRegistry';

export const PDF_PAGE_SCHEME = 'rlm-pdf-page';
export const DECOMPRESSED_SCHEME = 'rlm-decompressed';
/** Lines shown either side of a cited line of a decompressed log. */
export const DECOMPRESSED_RADIUS_LINES = 300;
/** A PDF opened for one page is read up to this size (the default limit of an input). */
const PDF_MAX_BYTES = 256 * 1024 * 1024;
/** Decoding for a slice stops here, whatever the log holds; the bomb rule of every read applies too. */
const DECOMPRESSED_MAX_BYTES = 8 * 1024 * 1024 * 1024;

/** The document showing page `page` of the PDF at `abs` (`shown`: its name in the reference). */
export function pdfPageUri(shown: string, abs: string, page: number): vscode.Uri {
  const id = derivedViews.issue({ kind: 'pdf-page', abs, shown, page });
  return vscode.Uri.from({ scheme: PDF_PAGE_SCHEME, path: `/${shown} (page ${page}, extracted text)`, query: new URLSearchParams({ id }).toString() });
}

/** The document showing the decompressed lines around `line`..`end` of the compressed file at `abs`. */
export function decompressedUri(shown: string, abs: string, format: Compression, line: number, end: number): vscode.Uri {
  const id = derivedViews.issue({ kind: 'decompressed', abs, shown, format, line, end });
  return vscode.Uri.from({ scheme: DECOMPRESSED_SCHEME, path: `/${shown} (decompressed, around line ${line})`, query: new URLSearchParams({ id }).toString() });
}

export const pdfPageProvider: vscode.TextDocumentContentProvider = {
  async provideTextDocumentContent(uri) {
    const view = derivedViews.lookup(new URLSearchParams(uri.query).get('id'), 'pdf-page');
    if (view?.kind !== 'pdf-page') return unknownViewText('pdf-page');
    const { abs, shown, page } = view;
    // A session of its own: the page is read from the file as it is now.
    const read = await pdfPageText(shown, abs, newPdfSession(), page, { maxFileBytes: PDF_MAX_BYTES });
    return `[page ${page} of ${shown}: its extracted text, read-only${read.truncated ? '; cut at the per-page limit' : ''}]\n${read.text}`;
  },
};

export const decompressedProvider: vscode.TextDocumentContentProvider = {
  async provideTextDocumentContent(uri) {
    const view = derivedViews.lookup(new URLSearchParams(uri.query).get('id'), 'decompressed');
    if (view?.kind !== 'decompressed') return unknownViewText('decompressed');
    const { abs, shown, format, line, end } = view;
    const window = new LineWindowCollector(line, end, DECOMPRESSED_RADIUS_LINES);
    const stop = new AbortController();
    let read;
    try {
      read = await readCompressed(abs, format, { maxBytes: DECOMPRESSED_MAX_BYTES, signal: stop.signal }, (piece) => {
        if (window.push(piece)) stop.abort();
      });
    } catch (error) {
      // Stopped on purpose once the window was complete.
      if (!stop.signal.aborted) throw error;
    }
    if (read && read.kind !== 'done' && read.kind !== 'stopped') throw new Error(`${shown} could not be decompressed (${read.kind})`);
    const lines = window.result();
    return `[lines ${lines.firstLine}-${lines.lastLine} of ${shown}, decompressed (${format}): read-only]\n${lines.text}`;
  },
};
