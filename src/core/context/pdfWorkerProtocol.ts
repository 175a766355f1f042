// The messages between the host and the PDF worker thread (pdfWorkerMain.ts). The worker parses what
// may be a hostile file, so what it says is checked like any other input (pdfDocument.ts).

/** Given to the worker when it starts: the file's bytes, read once by the host with its usual checks. */
export interface PdfWorkerData {
  data: Uint8Array;
  /** Folder of pdf.js's character maps (CJK fonts), shipped beside the bundle; absent: none are read. */
  cMapDir?: string;
  /** A page's text is cut at this many characters (a page of millions of glyphs stays bounded). */
  maxPageChars: number;
}

/** Why the worker could not open the document. */
type PdfOpenFailure = 'encrypted' | 'malformed';

export type PdfWorkerMessage =
  | { kind: 'opened'; pages: number }
  | { kind: 'open-failed'; reason: PdfOpenFailure; detail: string }
  | { kind: 'page'; id: number; text: string; truncated: boolean }
  | { kind: 'page-failed'; id: number; detail: string };

export interface PdfPageRequest {
  id: number;
  /** 1-based. */
  page: number;
}
