// Why a PDF could not be read, in one sentence that says what to do. A PDF is parsed in a worker thread
// with limits (pdfDocument.ts); each way that can fail is a reason here, never a hang or a crash.
import { formatBytes } from '../../shared/text/format';
import { ContextReadError } from './contextErrors';

type PdfFailure = 'not-pdf' | 'encrypted' | 'malformed' | 'no-pages' | 'too-many-pages' | 'too-large' | 'timeout' | 'memory' | 'crashed' | 'changed' | 'unreadable';

interface PdfFailureFacts {
  /** What pdf.js or the system said, clipped. */
  detail?: string;
  pages?: number;
  limit?: number;
  ms?: number;
  page?: number;
}

function duration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

function sentence(path: string, reason: PdfFailure, facts: PdfFailureFacts): string {
  const at = facts.page !== undefined ? ` on page ${facts.page}` : ' while opening it';
  switch (reason) {
    case 'not-pdf':
      return `${path} is named .pdf but is not a PDF (it does not start with %PDF-); RLM reads PDFs, text and source files. Check the file, or rename it if it is text.`;
    case 'encrypted':
      return `${path} is encrypted (it needs a password to open), so its text cannot be read. Save a copy without the password (e.g. print to PDF) and ask about that.`;
    case 'malformed':
      return `${path} is damaged or not a valid PDF (${facts.detail ?? 'pdf.js could not parse it'}); nothing was sent. Re-export or repair it (e.g. print to PDF) and ask again.`;
    case 'no-pages':
      return `${path} has no pages, so there is no text to ask about.`;
    case 'too-many-pages':
      return `${path} says it has ${facts.pages ?? 'too many'} pages, over the ${facts.limit ?? ''} pages RLM reads from one PDF; nothing was sent. Split it, or ask about the part you need.`;
    case 'too-large':
      return `${path} is larger than the ${formatBytes(facts.limit ?? 0)} limit for the input; nothing was sent. Ask about a smaller part, or raise the limit.`;
    case 'timeout':
      return `Reading ${path} took longer than ${duration(facts.ms ?? 0)}${at}, so it was stopped; the file may be hostile or too complex. Save it again (e.g. print to PDF) and ask again.`;
    case 'memory':
      return `Reading ${path} needed more than the ${facts.limit ?? ''} MB allowed for parsing a PDF${at}, so it was stopped. Split the file or save it again, and ask again.`;
    case 'crashed':
      return `The PDF reader stopped${at} of ${path} (${facts.detail ?? 'no reason given'}); nothing more was read from it.`;
    case 'changed':
      return `${path} changed since it was first read, so its pages are no longer those the run started with. Ask again.`;
    case 'unreadable':
      return `${path} could not be read (${facts.detail ?? 'unknown reason'}).`;
  }
}

export class PdfReadError extends ContextReadError {
  constructor(
    readonly path: string,
    readonly reason: PdfFailure,
    readonly facts: PdfFailureFacts = {},
  ) {
    super(sentence(path, reason, facts));
  }
}
