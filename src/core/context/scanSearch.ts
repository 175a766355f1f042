// search() over a lazy folder without ripgrep (or for a pattern ripgrep cannot take): the host reads
// the planned files (time-sliced, each checked at read time as context[...] checks it) and hands their
// text in batches to a worker thread that runs the RegExp (regexWorker.ts). The main thread only reads
// and waits, so a pattern that backtracks for ever stops at its time limit, or at once when aborted.
import type { ContextFs } from './contextPlan';
import type { PlannedFile } from './contextTypes';
import { readAnyPlannedInto } from './planReader';
import { BATCH_BYTES, RegexWorker } from './regexWorker';
import { SearchRefusedFileError } from './searchErrors';
import type { SearchHit, SearchOutcome } from './searchTypes';
import { TimeSlicer } from './timeSlicer';

interface ScanOptions {
  maxFileBytes: number;
  /** Real paths every file must lie in, checked on the open descriptor; absent: only its type is checked. */
  within?: readonly string[];
  signal?: AbortSignal;
  /** The longest a batch of 1 MB of text may take (scaled for a larger one). */
  patternTimeLimitMs: number;
  fs?: ContextFs;
}

interface Pending {
  batch: Promise<{ hits: SearchHit[]; more: boolean }>;
  /** Index in the plan of the batch's last file. */
  last: number;
}

export async function scanSearch(js: { source: string; flags: string }, pattern: string, files: readonly PlannedFile[], maxHits: number, options: ScanOptions): Promise<SearchOutcome> {
  const scratch = new Uint8Array(options.maxFileBytes + 1);
  const staging = new Uint8Array(BATCH_BYTES);
  const slicer = new TimeSlicer();
  // Started with the first batch: a search whose files are all skipped costs no thread.
  let worker: RegexWorker | undefined;
  const hits: SearchHit[] = [];
  let staged: Array<{ path: string; start: number; end: number }> = [];
  let used = 0;
  let lastStaged = -1;
  let pending: Pending | undefined;
  let truncated = false;
  /** Listed files no longer as listed (deleted, grown past the size limit): left out, and said. */
  const changed: string[] = [];
  const unreadable: Array<{ path: string; detail: string }> = [];
  /** Takes the batch in flight; true when it filled maxHits (the search is over). */
  const settle = async (): Promise<boolean> => {
    if (!pending) return false;
    const { batch, last } = pending;
    pending = undefined;
    const result = await batch;
    hits.push(...result.hits);
    if (hits.length < maxHits) return false;
    truncated = result.more || last < files.length - 1;
    return true;
  };
  /** Sends what is staged (after the batch before it came back: hits stay in plan order). */
  const send = async (bytes: Uint8Array): Promise<boolean> => {
    if (await settle()) return true;
    worker ??= new RegexWorker(js, pattern, options.patternTimeLimitMs, options.signal);
    const batch = worker.run({ bytes, files: staged, maxHits: maxHits - hits.length });
    // Awaited by settle(); until then a rejection (time limit, abort) must not count as unhandled.
    batch.catch(() => undefined);
    pending = { batch, last: lastStaged };
    staged = [];
    used = 0;
    return false;
  };
  try {
    for (let i = 0; i < files.length; i++) {
      await slicer.yieldIfDue();
      options.signal?.throwIfAborted();
      const file = files[i]!;
      const read = await readAnyPlannedInto(file, scratch, options.fs, options.within);
      if (read.kind === 'skipped') {
        const { reason, detail } = read.skipped;
        // What the walk listed is no longer a regular file inside the folder: said, never read as ''.
        if (reason === 'link' || reason === 'special' || reason === 'link-outside') throw new SearchRefusedFileError(file.path, detail ?? reason);
        // A file that cannot be read as text at all (an encrypted PDF) did not change: it is said with its reason.
        if (reason === 'unreadable' && detail) unreadable.push({ path: file.path, detail });
        else changed.push(file.path);
        continue;
      }
      if (read.kind === 'full') {
        changed.push(file.path);
        continue;
      }
      if (used + read.length > staging.length && staged.length > 0 && (await send(staging.slice(0, used)))) return { hits, truncated, engine: 'javascript', changed, ...(unreadable.length ? { unreadable } : {}) };
      if (read.length > staging.length) {
        // A file larger than a batch goes alone, in its own buffer.
        staged = [{ path: file.path, start: 0, end: read.length }];
        lastStaged = i;
        if (await send(scratch.slice(0, read.length))) return { hits, truncated, engine: 'javascript', changed, ...(unreadable.length ? { unreadable } : {}) };
        continue;
      }
      staging.set(scratch.subarray(0, read.length), used);
      staged.push({ path: file.path, start: used, end: used + read.length });
      used += read.length;
      lastStaged = i;
    }
    if (staged.length > 0 && (await send(staging.slice(0, used)))) return { hits, truncated, engine: 'javascript', changed, ...(unreadable.length ? { unreadable } : {}) };
    await settle();
    return { hits, truncated, engine: 'javascript', changed, ...(unreadable.length ? { unreadable } : {}) };
  } finally {
    await worker?.close();
  }
}
