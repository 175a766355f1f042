// A PDF opened in its own worker thread (dist/pdfWorker.js, pdfWorkerMain.ts), and the pages asked of
// it. The host reads the file once, with the usual checks (a regular file, under the limit), and hands
// the bytes over; the worker never touches the file system beyond pdf.js's shipped character maps.
// Every answer is timed and the worker's heap is capped: a page that takes too long, or a document that
// needs too much memory, ends the thread and becomes a PdfReadError, never a hang of the host. Open
// documents are kept per file while pages are read, and closed when idle (a lazy `context` may read a
// page minutes later: the file is then read again, and refused if it changed).
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
// A type only: worker_threads is loaded when the first PDF is opened, not with the extension or every `rlm ask`.
import type { Worker } from 'node:worker_threads';
import { readLocalFile } from './localFileRead';
import { PdfReadError } from './pdfErrors';
import { watchHostMemory } from './pdfMemoryWatch';
import { checkPdfWorkerMessage } from './pdfWorkerProtocol';
import type { PdfWorkerData, PdfWorkerMessage } from './pdfWorkerProtocol';

export interface PdfLimits {
  /** Opening the document (parsing its structure and page tree). */
  openMs: number;
  /** Extracting one page's text. */
  pageMs: number;
  /** The worker's JavaScript heap (V8 old generation), in MB. */
  heapMb: number;
  /**
   * Growth of the whole process's resident memory allowed while one answer is awaited, in MB: the
   * buffers pdf.js inflates into are outside the heap limit (pdfMemoryWatch.ts).
   */
  hostGrowthMb: number;
  /** A document claiming more pages is refused (a page bomb). */
  maxPages: number;
  /** A page's text is cut here. */
  maxPageChars: number;
  /** Closed after this long without a request. */
  idleMs: number;
}

const DEFAULT_PDF_LIMITS: PdfLimits = {
  // Generous: a loaded 2-core machine takes a second to start the worker; a sane page takes milliseconds.
  openMs: 30_000,
  pageMs: 20_000,
  heapMb: 512,
  hostGrowthMb: 768,
  maxPages: 20_000,
  maxPageChars: 1_000_000,
  idleMs: 30_000,
};

interface PdfOpenOptions {
  /** The file may be at most this large. */
  maxFileBytes: number;
  limits?: Partial<PdfLimits>;
  /** dist/pdfWorker.js; default: beside the running bundle. */
  workerPath?: string;
}

interface PdfPageText {
  text: string;
  truncated: boolean;
}

const PDF_MAGIC = '%PDF-';
/** The header may follow some junk, as readers accept: it must appear within the first KB. */
const MAGIC_WINDOW = 1024;

function defaultWorkerPath(): string {
  return join(__dirname, 'pdfWorker.js');
}

/** One worker holding one parsed document; pages are asked one at a time. */
class PdfWorkerDocument {
  private queue: Promise<unknown> = Promise.resolve();
  private idle: NodeJS.Timeout | undefined;
  private dead: PdfReadError | undefined;

  private constructor(
    private readonly worker: Worker,
    private readonly checked: CheckedMessages,
    readonly pages: number,
    private readonly shown: string,
    private readonly limits: PdfLimits,
    /** `reason`: the document failed (a violation, a time limit); none when it was closed for being idle. */
    private readonly onClose: (reason?: PdfReadError) => void,
  ) {
    // A message while no page is asked for (a flood, a late answer) ends the worker and the document.
    checked.on('violation', (error: PdfReadError) => this.close(error));
    this.armIdle();
  }

  static async start(shown: string, data: Uint8Array, limits: PdfLimits, workerPath: string, onClose: (reason?: PdfReadError) => void): Promise<PdfWorkerDocument> {
    const cMapDir = join(workerPath, '..', 'pdf-cmaps');
    const workerData: PdfWorkerData = { data, maxPageChars: limits.maxPageChars, ...(existsSync(cMapDir) ? { cMapDir } : {}) };
    const { Worker } = await import('node:worker_threads');
    const worker = new Worker(workerPath, {
      workerData,
      transferList: [data.buffer as ArrayBuffer],
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: Math.min(64, limits.heapMb) },
      // None of the host's flags (a loader such as tsx, --inspect): the bundle needs none, and a loader would transform it again.
      execArgv: [],
      // No environment: the host's holds API keys, and the thread runs a parser of hostile files.
      env: {},
      // Kept away from the user's terminal, and never read: the thread writes nothing (pdfWorkerGlobals.ts),
      // and a stream being read would hold the host's event loop, so the unref'd thread kept `rlm` from exiting.
      stdout: true,
      stderr: true,
    });
    const checked = checkMessages(worker, shown, limits.maxPageChars);
    // After the `message` listener: adding one to a Worker refs it again, and a ref'd thread kept
    // `rlm ask design.pdf` alive after its answer until the idle close, 30 s later.
    worker.unref();
    const opened = await answerOf(worker, checked, { ms: limits.openMs, heapMb: limits.heapMb, hostGrowthMb: limits.hostGrowthMb }, shown, undefined, (m) => (m.kind === 'opened' || m.kind === 'open-failed' ? m : undefined));
    if (opened.kind === 'open-failed') {
      void worker.terminate();
      throw new PdfReadError(shown, opened.reason, { detail: opened.detail });
    }
    if (!Number.isInteger(opened.pages) || opened.pages < 0) {
      void worker.terminate();
      throw new PdfReadError(shown, 'malformed', { detail: 'no page count' });
    }
    if (opened.pages === 0) {
      void worker.terminate();
      throw new PdfReadError(shown, 'no-pages');
    }
    if (opened.pages > limits.maxPages) {
      void worker.terminate();
      throw new PdfReadError(shown, 'too-many-pages', { pages: opened.pages, limit: limits.maxPages });
    }
    return new PdfWorkerDocument(worker, checked, opened.pages, shown, limits, onClose);
  }

  /** The page's text; requests wait their turn, and each is timed from when it is sent. */
  page(page: number): Promise<PdfPageText> {
    const run = this.queue.then(() => this.ask(page));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private nextId = 1;

  private async ask(page: number): Promise<PdfPageText> {
    if (this.dead) throw this.dead;
    if (this.idle) clearTimeout(this.idle);
    const id = this.nextId++;
    this.worker.postMessage({ id, page });
    try {
      const answer = await answerOf(this.worker, this.checked, { ms: this.limits.pageMs, heapMb: this.limits.heapMb, hostGrowthMb: this.limits.hostGrowthMb }, this.shown, page, (m) => ((m.kind === 'page' || m.kind === 'page-failed') && m.id === id ? m : undefined));
      if (answer.kind === 'page-failed') throw new PdfReadError(this.shown, 'malformed', { detail: answer.detail, page });
      return { text: answer.text, truncated: answer.truncated };
    } catch (error) {
      // A late or failed worker is ended; a page pdf.js could not parse leaves the others readable.
      if (error instanceof PdfReadError && error.reason !== 'malformed') this.close(error);
      throw error;
    } finally {
      if (!this.dead) this.armIdle();
    }
  }

  private armIdle(): void {
    this.idle = setTimeout(() => this.close(), this.limits.idleMs);
    this.idle.unref();
  }

  close(reason?: PdfReadError): void {
    if (this.idle) clearTimeout(this.idle);
    this.dead ??= reason ?? new PdfReadError(this.shown, 'crashed', { detail: 'closed' });
    void this.worker.terminate();
    this.onClose(reason);
  }
}

/** The worker's messages after checkPdfWorkerMessage: `message` for a well-formed one that is awaited, else `violation`. */
type CheckedMessages = EventEmitter;

/**
 * Reads the worker's messages as hostile: each is checked against its declaration (kind, fields, types,
 * sizes); a malformed one, or one that arrives when no answer is awaited (nothing listens for
 * `message`), terminates the worker at once and is a `violation`. So a flood costs the host one
 * message, and a lie about a field never reaches the code that reads it.
 */
function checkMessages(worker: Worker, shown: string, maxPageChars: number): CheckedMessages {
  const checked = new EventEmitter();
  let ended = false;
  worker.on('message', (raw: unknown) => {
    if (ended) return;
    const message = checkPdfWorkerMessage(raw, maxPageChars);
    const problem = message === undefined ? 'sent a malformed message' : checked.listenerCount('message') === 0 ? 'sent a message when none was asked for' : undefined;
    if (problem === undefined) {
      checked.emit('message', message);
      return;
    }
    ended = true;
    void worker.terminate();
    checked.emit('violation', new PdfReadError(shown, 'crashed', { detail: `the PDF reader ${problem}, so it was ended` }));
  });
  return checked;
}

/**
 * The first message `pick` accepts, or a PdfReadError when the time runs out, the heap limit is hit,
 * the worker ends or sends anything else. The listeners are removed whichever comes first.
 */
function answerOf<T>(worker: Worker, checked: CheckedMessages, limits: Pick<PdfLimits, 'heapMb' | 'hostGrowthMb'> & { ms: number }, shown: string, page: number | undefined, pick: (m: PdfWorkerMessage) => T | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      stopWatch();
      checked.off('message', onMessage);
      checked.off('violation', fail);
      worker.off('error', onError);
      worker.off('exit', onExit);
    };
    const fail = (error: PdfReadError): void => {
      done();
      void worker.terminate();
      reject(error);
    };
    const onMessage = (message: PdfWorkerMessage): void => {
      const picked = pick(message);
      // One request is out at a time: any other answer is not the worker's to give.
      if (picked === undefined) return fail(new PdfReadError(shown, 'crashed', { detail: `the PDF reader answered out of turn (${message.kind}), so it was ended`, ...(page ? { page } : {}) }));
      done();
      resolve(picked);
    };
    const onError = (error: Error & { code?: string }): void => {
      fail(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new PdfReadError(shown, 'memory', { limit: limits.heapMb, ...(page ? { page } : {}) }) : new PdfReadError(shown, 'crashed', { detail: error.message.slice(0, 200), ...(page ? { page } : {}) }));
    };
    const onExit = (code: number): void => fail(new PdfReadError(shown, 'crashed', { detail: `exit code ${code}`, ...(page ? { page } : {}) }));
    const timer = setTimeout(() => fail(new PdfReadError(shown, 'timeout', { ms: limits.ms, ...(page ? { page } : {}) })), limits.ms);
    const stopWatch = watchHostMemory({ limitMb: limits.hostGrowthMb, onOver: () => fail(new PdfReadError(shown, 'memory', { limit: limits.hostGrowthMb, ...(page ? { page } : {}) })) });
    checked.on('message', onMessage);
    checked.on('violation', fail);
    worker.on('error', onError);
    worker.on('exit', onExit);
  });
}

interface Entry {
  /** The open document, while one is. */
  doc?: Promise<PdfWorkerDocument>;
  /** The content the pages were first read from: a reopened file must still be it. */
  sha256?: string;
  /** A failure of the whole document (time, memory, crash): every later page gets it at once. */
  failed?: PdfReadError;
}

/**
 * Open documents by reading session and absolute path. A session is one plan (one run's `context`):
 * its pages must all come from the same content, and a failure is final within it; the next run plans
 * afresh, so a file fixed or changed in between is read as it is then. A closed entry is a hash and a flag.
 */
const documents = new Map<string, Entry>();
let lastSession = 0;

/** A new reading session (planPdfFile takes one per plan). */
export function newPdfSession(): number {
  return ++lastSession;
}

function keyOf(session: number, abs: string): string {
  return `${session}\n${abs}`;
}

async function readChecked(shown: string, abs: string, maxFileBytes: number): Promise<Uint8Array> {
  let read;
  try {
    read = await readLocalFile(abs, { maxBytes: maxFileBytes });
  } catch (error) {
    throw new PdfReadError(shown, 'unreadable', { detail: (error as NodeJS.ErrnoException).code ?? String(error) });
  }
  if (read.kind === 'too-large') throw new PdfReadError(shown, 'too-large', { limit: maxFileBytes });
  if (read.kind !== 'read') throw new PdfReadError(shown, 'unreadable', { detail: read.kind === 'special' ? `a ${read.special}` : read.kind });
  const head = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, Math.min(MAGIC_WINDOW, read.bytes.byteLength)).toString('latin1');
  if (!head.includes(PDF_MAGIC)) throw new PdfReadError(shown, 'not-pdf');
  // The worker gets the buffer (transferred): a copy of exactly the file's bytes.
  return new Uint8Array(read.bytes);
}

/**
 * The document at `abs`, opened if it is not: at most one worker per file. `shown` names it in errors.
 * A file that changed since its first opening is refused (pages already bound came from the old one).
 */
export function openPdf(shown: string, abs: string, session: number, options: PdfOpenOptions): Promise<PdfWorkerDocument> {
  const key = keyOf(session, abs);
  const entry = documents.get(key) ?? {};
  documents.set(key, entry);
  if (entry.failed) return Promise.reject(entry.failed);
  if (entry.doc) return entry.doc;
  const limits = { ...DEFAULT_PDF_LIMITS, ...options.limits };
  const opening = (async () => {
    const data = await readChecked(shown, abs, options.maxFileBytes);
    const sha256 = createHash('sha256').update(data).digest('hex');
    if (entry.sha256 !== undefined && entry.sha256 !== sha256) throw new PdfReadError(shown, 'changed');
    entry.sha256 = sha256;
    return PdfWorkerDocument.start(shown, data, limits, options.workerPath ?? defaultWorkerPath(), (reason) => {
      if (entry.doc === opening) delete entry.doc;
      // A document that failed (a worker that broke the protocol, a time limit) stays failed in this session.
      if (reason) entry.failed ??= reason;
    });
  })();
  entry.doc = opening;
  opening.catch((error: unknown) => {
    if (entry.doc === opening) delete entry.doc;
    // Failing to open is final for this content; a change to the file is read afresh next time.
    if (error instanceof PdfReadError && error.reason !== 'changed' && error.reason !== 'unreadable') entry.failed = error;
  });
  return opening;
}

/** The text of one page of the document at `abs` (1-based), through its open worker. */
export async function pdfPageText(shown: string, abs: string, session: number, page: number, options: PdfOpenOptions): Promise<PdfPageText> {
  const entry = documents.get(keyOf(session, abs));
  if (entry?.failed) throw entry.failed;
  const doc = await openPdf(shown, abs, session, options);
  if (page < 1 || page > doc.pages) throw new PdfReadError(shown, 'malformed', { detail: `no page ${page} of ${doc.pages}`, page });
  try {
    return await doc.page(page);
  } catch (error) {
    if (error instanceof PdfReadError && (error.reason === 'timeout' || error.reason === 'memory' || error.reason === 'crashed')) {
      const failed = documents.get(keyOf(session, abs));
      if (failed) failed.failed = error;
    }
    throw error;
  }
}

