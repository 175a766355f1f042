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

/** pdf.js's own words in a failure are cut here by the worker; a longer one is not the worker's. */
export const PDF_DETAIL_MAX_CHARS = 300;

const OPEN_FAILURES: readonly string[] = ['encrypted', 'malformed'] satisfies PdfOpenFailure[];

const FIELDS: Record<PdfWorkerMessage['kind'], readonly string[]> = {
  opened: ['kind', 'pages'],
  'open-failed': ['kind', 'reason', 'detail'],
  page: ['kind', 'id', 'text', 'truncated'],
  'page-failed': ['kind', 'id', 'detail'],
};

const count = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
const detail = (v: unknown): v is string => typeof v === 'string' && v.length <= PDF_DETAIL_MAX_CHARS;

/**
 * A message from the worker as declared above, or undefined when it is not one: an unknown kind, a
 * field missing, of the wrong type or too long (a page's text past `maxPageChars`), or any field more.
 * The worker runs pdf.js on a hostile file, so the host believes nothing it did not check here.
 */
export function checkPdfWorkerMessage(raw: unknown, maxPageChars: number): PdfWorkerMessage | undefined {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || Object.getPrototypeOf(raw) !== Object.prototype) return undefined;
  const m = raw as Record<string, unknown>;
  const kind = m['kind'];
  if (typeof kind !== 'string' || !Object.hasOwn(FIELDS, kind)) return undefined;
  const fields = FIELDS[kind as PdfWorkerMessage['kind']];
  const keys = Object.keys(m);
  if (keys.length !== fields.length || !keys.every((k) => fields.includes(k))) return undefined;
  switch (kind) {
    case 'opened':
      return count(m['pages']) ? { kind, pages: m['pages'] } : undefined;
    case 'open-failed':
      return typeof m['reason'] === 'string' && OPEN_FAILURES.includes(m['reason']) && detail(m['detail']) ? { kind, reason: m['reason'] as PdfOpenFailure, detail: m['detail'] } : undefined;
    case 'page':
      return count(m['id']) && typeof m['text'] === 'string' && m['text'].length <= maxPageChars && typeof m['truncated'] === 'boolean' ? { kind, id: m['id'], text: m['text'], truncated: m['truncated'] } : undefined;
    default:
      return count(m['id']) && detail(m['detail']) ? { kind: 'page-failed', id: m['id'], detail: m['detail'] } : undefined;
  }
}
