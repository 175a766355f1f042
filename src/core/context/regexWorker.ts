// Runs a JavaScript RegExp over file texts in a worker thread, never on the host's main thread: a
// pattern with look-around or back-references backtracks, and one like (a+)+(?=b) over a line of "a"s
// takes exponential time inside a single exec() call, which nothing on the same thread can interrupt.
// The worker is terminated (V8 stops even a running exec) when a batch runs past its time limit, and at
// once when the search is aborted (the cell's timeout, the run's timeout, Stop or Ctrl-C), so the event
// loop keeps turning and the search ends within milliseconds of being told to.
import { Worker } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { PatternTooSlowError } from './searchErrors';
import type { SearchHit } from './searchTypes';
import { clipLine, countLowSurrogates, countNewlines, findHits } from './textHits';

/** One batch: the UTF-8 bytes of some files back to back, and where each lies. */
interface Batch {
  bytes: Uint8Array;
  files: Array<{ path: string; start: number; end: number }>;
  maxHits: number;
}

interface BatchResult {
  hits: SearchHit[];
  /** Hits beyond maxHits exist in this batch. */
  more: boolean;
}

/** The worker's side: compiles the pattern once, then answers batch after batch. */
function regexWorkerMain(port: MessagePort, data: { source: string; flags: string }, find: typeof findHits): void {
  const rx = new RegExp(data.source, data.flags);
  const decoder = new TextDecoder('utf-8');
  port.on('message', (batch: { id: number; buffer: ArrayBuffer; files: Batch['files']; maxHits: number }) => {
    const bytes = new Uint8Array(batch.buffer);
    const hits: SearchHit[] = [];
    let more = false;
    for (const file of batch.files) {
      const found = find(rx, decoder.decode(bytes.subarray(file.start, file.end)), file.path, batch.maxHits - hits.length);
      hits.push(...found.hits);
      if (hits.length >= batch.maxHits) {
        more = found.more || file !== batch.files[batch.files.length - 1];
        break;
      }
    }
    port.postMessage({ id: batch.id, hits, more });
  });
}

// The worker's source is the text of the functions it runs. A bundler that renames them renames the
// calls inside them alike; `__name` is what a build keeping function names may wrap them in.
const WORKER_SOURCE = [
  'const __name = (f) => f;',
  String(countNewlines),
  String(countLowSurrogates),
  String(clipLine),
  String(findHits),
  "const { parentPort, workerData } = require('node:worker_threads');",
  `(${String(regexWorkerMain)})(parentPort, workerData, ${findHits.name});`,
].join('\n');

/** Bytes of text a batch's time limit is given for; a larger batch (one large file) gets more, in proportion. */
export const BATCH_BYTES = 1024 * 1024;

export class RegexWorker {
  private readonly worker: Worker;
  private readonly online: Promise<void>;
  private settleOnline: () => void = () => undefined;
  private nextId = 0;
  private failure: Error | undefined;
  private waiting: { id: number; resolve: (r: BatchResult) => void; reject: (e: Error) => void } | undefined;

  /** `limitMs`: the longest one batch of BATCH_BYTES may take before the pattern counts as too slow. */
  constructor(
    js: { source: string; flags: string },
    private readonly pattern: string,
    private readonly limitMs: number,
    private readonly signal?: AbortSignal,
  ) {
    // A small heap: the worker holds one batch's text and its hits, never a folder.
    this.worker = new Worker(WORKER_SOURCE, { eval: true, workerData: js, env: {}, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    // Also settled when the worker fails first (an abort before it came up): run() must not wait for ever.
    this.online = new Promise((resolve) => {
      this.settleOnline = resolve;
      this.worker.once('online', () => resolve());
    });
    this.worker.on('message', (result: BatchResult & { id: number }) => {
      if (this.waiting?.id !== result.id) return;
      const { resolve } = this.waiting;
      this.waiting = undefined;
      resolve({ hits: result.hits, more: result.more });
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', () => this.fail(new Error('search: the regex worker ended before it answered')));
    signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** Searches one batch; rejects on the time limit (PatternTooSlowError) or the abort, having ended the worker. */
  async run(batch: Batch): Promise<BatchResult> {
    await this.online;
    if (this.failure) throw this.failure;
    this.signal?.throwIfAborted();
    const id = this.nextId++;
    const limit = this.limitMs * Math.max(1, batch.bytes.byteLength / BATCH_BYTES);
    return new Promise<BatchResult>((resolve, reject) => {
      const timer = setTimeout(() => this.fail(new PatternTooSlowError(this.pattern, limit, batch.files.length === 1 ? batch.files[0]!.path : `${batch.files[0]!.path} and ${batch.files.length - 1} more`)), limit);
      const done = (): void => clearTimeout(timer);
      this.waiting = { id, resolve: (r) => (done(), resolve(r)), reject: (e) => (done(), reject(e)) };
      // The bytes are handed over, not copied: the caller gives each batch its own buffer.
      const buffer = batch.bytes.byteOffset === 0 && batch.bytes.buffer.byteLength === batch.bytes.byteLength ? batch.bytes.buffer : batch.bytes.slice().buffer;
      this.worker.postMessage({ id, buffer, files: batch.files, maxHits: batch.maxHits }, [buffer as ArrayBuffer]);
    });
  }

  /** Ends the worker; waits until its thread is gone. */
  async close(): Promise<void> {
    this.signal?.removeEventListener('abort', this.onAbort);
    this.failure ??= new Error('search: the regex worker was closed');
    await this.worker.terminate();
  }

  private readonly onAbort = (): void => {
    const reason: unknown = this.signal?.reason;
    this.fail(reason instanceof Error ? reason : new Error('search stopped'));
  };

  private fail(error: Error): void {
    this.failure ??= error;
    this.settleOnline();
    void this.worker.terminate();
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(this.failure);
  }
}
