// The PDF worker thread (bundled alone as dist/pdfWorker.js): opens one document with pdf.js and
// answers page requests with the page's text. It runs off the host's main thread with a heap limit set
// by its parent (pdfDocument.ts), which also times every answer and terminates the thread when one is
// late: a malformed or hostile file can make pdf.js loop, allocate or throw, and none of that reaches
// the extension host. Nothing is fetched: no fonts, no worker script, no network; only the character
// maps shipped beside the bundle are read, for CJK fonts.
import './pdfWorkerGlobals';
import { parentPort, workerData } from 'node:worker_threads';
import * as pdfjsWorker from 'pdfjs-dist/legacy/build/pdf.worker.mjs';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { PDF_DETAIL_MAX_CHARS } from './pdfWorkerProtocol';
import type { PdfPageRequest, PdfWorkerData, PdfWorkerMessage } from './pdfWorkerProtocol';

// pdf.js runs its parsing "worker" in this same thread when it finds the handler here, instead of
// importing a worker script by URL (which a bundle does not have).
(globalThis as { pdfjsWorker?: unknown }).pdfjsWorker = pdfjsWorker;

const port = parentPort!;
const input = workerData as PdfWorkerData;

function post(message: PdfWorkerMessage): void {
  port.postMessage(message);
}

interface TextItemLike {
  str?: unknown;
  hasEOL?: unknown;
}

/** The page's text: pdf.js's items in order, a newline where it marks the end of a line. */
function pageText(items: readonly TextItemLike[], max: number): { text: string; truncated: boolean } {
  const parts: string[] = [];
  let length = 0;
  for (const item of items) {
    const piece = (typeof item.str === 'string' ? item.str : '') + (item.hasEOL === true ? '\n' : '');
    if (length + piece.length > max) {
      parts.push(piece.slice(0, max - length));
      return { text: parts.join(''), truncated: true };
    }
    parts.push(piece);
    length += piece.length;
  }
  return { text: parts.join(''), truncated: false };
}

async function open(): Promise<PDFDocumentProxy | undefined> {
  const task = getDocument({
    data: input.data,
    ...(input.cMapDir ? { cMapUrl: input.cMapDir.endsWith('/') ? input.cMapDir : `${input.cMapDir}/`, cMapPacked: true } : {}),
    // Text only: no fonts loaded or faked, no images decoded, no script evaluated, nothing fetched.
    disableFontFace: true,
    useSystemFonts: false,
    isEvalSupported: false,
    useWorkerFetch: false,
    useWasm: false,
    enableXfa: false,
    maxImageSize: 0,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    verbosity: 0,
  });
  try {
    return await task.promise;
  } catch (error) {
    const name = (error as { name?: unknown }).name;
    const message = error instanceof Error ? error.message : String(error);
    post({ kind: 'open-failed', reason: name === 'PasswordException' ? 'encrypted' : 'malformed', detail: message.slice(0, PDF_DETAIL_MAX_CHARS) });
    return undefined;
  }
}

async function main(): Promise<void> {
  const doc = await open();
  if (!doc) return;
  post({ kind: 'opened', pages: doc.numPages });
  port.on('message', (request: PdfPageRequest) => {
    void (async () => {
      try {
        const page = await doc.getPage(request.page);
        const content = await page.getTextContent({ includeMarkedContent: false });
        const { text, truncated } = pageText(content.items as TextItemLike[], input.maxPageChars);
        page.cleanup();
        post({ kind: 'page', id: request.id, text, truncated });
      } catch (error) {
        post({ kind: 'page-failed', id: request.id, detail: (error instanceof Error ? error.message : String(error)).slice(0, PDF_DETAIL_MAX_CHARS) });
      }
    })();
  });
}

void main();
