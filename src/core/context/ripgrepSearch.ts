// ripgrep over the planned files, named explicitly in batches (so nothing outside the plan is named),
// its JSON output turned into hits in the plan's order.
//
// ripgrep opens the paths it is given itself, following links, so what the walk listed may be something
// else by the time it is read (a `git checkout`, or anything else changing the folder during a run).
// Checking before ripgrep starts would be a race; handing it an open descriptor per file costs the host
// an open and a stat per file (2 to 3 times ripgrep's own time on 100,000 files). Instead, nothing
// ripgrep reports is believed:
// - every hit is read back from a descriptor the host opens itself (O_NOFOLLOW, O_NONBLOCK, the handle
//   stat'ed as a regular file, its real path inside the folder: planReader.ts with `within`), and the
//   line ripgrep saw must be the bytes at that offset; the hit's text is cut from the host's own bytes.
//   A file swapped for a link, a device or a FIFO, or lying outside the folder, refuses the search
//   (SearchRefusedFileError); a file that changed in between does too. So a file outside the folder
//   never yields a hit, even when ripgrep read it.
// - a batch still running after `sweepMs` has its files looked at (their folders listed), and again at doubling
//   intervals: a FIFO swapped in (which would block ripgrep's open for ever) or a link (which may lead
//   to a device that never ends) ends the search with the same error. So a search never blocks for
//   long on a swapped file.
import { spawn } from 'node:child_process';
import { lstatSync, readdirSync } from 'node:fs';
import { basename, dirname, sep } from 'node:path';
import type { ContextFs } from './contextPlan';
import type { PlannedFile } from './contextTypes';
import { readAnyPlannedInto } from './planReader';
import { SearchRefusedFileError } from './searchErrors';
import type { SearchHit, SearchOutcome } from './searchTypes';
import { clipLine } from './textHits';
import { TimeSlicer } from './timeSlicer';

export interface RipgrepBatching {
  /** Bytes of path arguments per process at most. */
  argBytes: number;
  /** Processes running side by side. */
  concurrency: number;
  /** A plan of this many files or more is split into at least `concurrency` batches. */
  splitFiles: number;
}

interface RipgrepOptions {
  binary: string;
  batching: RipgrepBatching;
  maxFileBytes: number;
  /** Real paths every file must lie in, checked on the host's descriptor; absent: only its type is checked. */
  within?: readonly string[];
  signal?: AbortSignal;
  /** How often a running batch's files are looked at for a FIFO or link swapped in. */
  sweepMs: number;
  fs?: ContextFs;
}

interface RgMatch {
  type: string;
  data?: { path?: { text?: string }; lines?: { text?: string; bytes?: string }; line_number?: number; absolute_offset?: number; submatches?: Array<{ start: number; end: number }> };
}

interface RgFound {
  index: number;
  /** Byte offset of the match in the file. */
  byteStart: number;
  /** Byte offset of the line (or lines) ripgrep reports it in, and their bytes as ripgrep read them. */
  lineStart: number;
  lineBytes: Buffer;
  line: number;
}

/** Undefined when ripgrep refused the pattern or could not run: the caller falls back to the scan. */
export async function ripgrepSearch(rg: { pattern: string; ignoreCase: boolean; dotAll: boolean; multiline: boolean }, files: readonly PlannedFile[], maxHits: number, options: RipgrepOptions): Promise<SearchOutcome | undefined> {
  const { signal, batching } = options;
  // Paths are given relative to the files' common folder (ripgrep runs there): half the argument
  // bytes, so fewer processes for the same files.
  const base = commonFolder(files);
  const argOf = (file: PlannedFile): string => (base ? file.abs.slice(base.length + 1) : file.abs);
  const order = new Map<string, number>();
  files.forEach((file, i) => order.set(argOf(file), i));
  const args = ['--json', '--no-config', '--no-ignore', '--hidden', '--no-messages', '--max-columns=0', '-e', rg.pattern];
  if (rg.ignoreCase) args.push('-i');
  if (rg.multiline) args.push('--multiline');
  if (rg.dotAll) args.push('--multiline-dotall');
  const batches = splitIntoBatches(
    files.map((file, index) => ({ arg: argOf(file), index })),
    batching,
  );
  const results: Array<RgFound[] | undefined> = batches.map(() => undefined);
  // Once the batches from the first on hold maxHits hits, later ones cannot change the first maxHits.
  const enough = (): boolean => {
    let count = 0;
    for (const batch of results) {
      if (!batch) return false;
      count += batch.length;
      if (count >= maxHits) return true;
    }
    return false;
  };
  const stop = new AbortController();
  let next = 0;
  let refused = false;
  let truncated = false;
  let failure: Error | undefined;
  const worker = async (): Promise<void> => {
    while (next < batches.length && !refused && !stop.signal.aborted) {
      signal?.throwIfAborted();
      const at = next++;
      const found: RgFound[] = [];
      const batch = batches[at]!;
      let folders: Map<string, Map<string, PlannedFile>> | undefined;
      const sweep = async (): Promise<Error | undefined> => swappedFile((folders ??= byFolder(batch.map((b) => files[b.index]!))), stop.signal);
      let ran;
      try {
        ran = await runRipgrep(options.binary, [...args, '--', ...batch.map((b) => b.arg)], base, maxHits * 4 + 1000, { signal, stop: stop.signal, sweep, sweepMs: options.sweepMs }, (match) => {
          const data = match.data;
          const index = order.get(data?.path?.text ?? '');
          if (index === undefined || !data) return;
          const lineBytes = data.lines?.text !== undefined ? Buffer.from(data.lines.text, 'utf8') : Buffer.from(data.lines?.bytes ?? '', 'base64');
          const lineStart = data.absolute_offset ?? 0;
          for (const sub of data.submatches ?? []) found.push({ index, byteStart: lineStart + sub.start, lineStart, lineBytes, line: data.line_number ?? 1 });
        });
      } catch (error) {
        if (signal?.aborted) throw error;
        failure ??= error instanceof Error ? error : new Error(String(error));
        stop.abort();
        return;
      }
      if (ran === 'refused') {
        refused = true;
        stop.abort();
      }
      if (ran === 'capped') truncated = true;
      if (ran === 'done' || ran === 'capped') results[at] = found;
      if (enough()) stop.abort();
    }
  };
  await Promise.all(Array.from({ length: Math.min(batching.concurrency, batches.length) }, worker));
  if (failure) throw failure;
  if (refused) return undefined;
  // A batch never searched (or stopped) may hold more hits.
  if (results.some((batch) => batch === undefined)) truncated = true;
  const found = results.flatMap((batch) => batch ?? []);
  found.sort((a, b) => a.index - b.index || a.byteStart - b.byteStart);
  if (found.length > maxHits) truncated = true;
  const { hits, changed } = await verifiedHits(found.slice(0, maxHits), files, options);
  return { hits, truncated, engine: 'ripgrep', changed };
}

/**
 * The hits as the host reads them back: each file opened by the host as context[...] opens it, and
 * each line ripgrep reported must be the bytes there. Files are visited in plan order, each once. A
 * file whose bytes changed in between (an ordinary rewrite: a `git checkout`, a log rotated) has all
 * its hits left out and is named in `changed`; only a file that stopped being a regular file inside the
 * folder refuses the search.
 */
async function verifiedHits(kept: readonly RgFound[], files: readonly PlannedFile[], options: RipgrepOptions): Promise<{ hits: SearchHit[]; changed: string[] }> {
  const hits: SearchHit[] = [];
  const changed: string[] = [];
  // Up to 10,000 files may be read back: in time slices, so the event loop (and an abort) is served.
  const slicer = new TimeSlicer();
  const scratch = new Uint8Array(options.maxFileBytes + 1);
  const decoder = new TextDecoder('utf-8');
  for (let i = 0; i < kept.length; ) {
    await slicer.yieldIfDue();
    options.signal?.throwIfAborted();
    const index = kept[i]!.index;
    let end = i;
    while (end < kept.length && kept[end]!.index === index) end++;
    const file = files[index]!;
    const read = await readAnyPlannedInto(file, scratch, options.fs, options.within);
    if (read.kind === 'skipped') {
      const { reason, detail } = read.skipped;
      if (reason === 'link' || reason === 'special' || reason === 'link-outside') throw new SearchRefusedFileError(file.path, detail ?? reason);
    }
    if (read.kind !== 'read') {
      changed.push(file.path);
      i = end;
      continue;
    }
    const bytes = scratch.subarray(0, read.length);
    let codePoints = 0;
    let countedTo = 0;
    const fileHits = hits.length;
    for (; i < end; i++) {
      const hit = kept[i]!;
      const lineEnd = hit.lineStart + hit.lineBytes.byteLength;
      if (lineEnd > bytes.byteLength || Buffer.compare(hit.lineBytes, bytes.subarray(hit.lineStart, lineEnd)) !== 0) {
        // What ripgrep read is not what is there now: none of this file's hits can be trusted.
        hits.length = fileHits;
        changed.push(file.path);
        i = end;
        break;
      }
      for (; countedTo < hit.byteStart; countedTo++) if ((bytes[countedTo]! & 0xc0) !== 0x80) codePoints++;
      let nl = bytes.indexOf(0x0a, hit.lineStart);
      if (nl < 0) nl = bytes.byteLength;
      const lineText = decoder.decode(bytes.subarray(hit.lineStart, nl)).replace(/\r$/, '');
      const column = decoder.decode(bytes.subarray(hit.lineStart, Math.min(hit.byteStart, nl))).length;
      hits.push({ path: file.path, line: hit.line, start: codePoints, text: clipLine(lineText, Math.min(column, lineText.length)) });
    }
  }
  return { hits, changed };
}

/**
 * The first file of a batch that is no longer a regular file (a link, a FIFO, a device), as an error to
 * end the search with. Folders are listed with their entries' types (one call per folder, not a stat
 * per file: 1,000 calls instead of 100,000 for the bench's folder), and each folder is checked to be a
 * folder still, not a link.
 */
async function swappedFile(folders: ReadonlyMap<string, ReadonlyMap<string, PlannedFile>>, stop: AbortSignal): Promise<Error | undefined> {
  const slicer = new TimeSlicer();
  for (const [folder, names] of folders) {
    await slicer.yieldIfDue();
    if (stop.aborted) return undefined;
    let entries;
    try {
      const self = lstatSync(folder, { throwIfNoEntry: false });
      if (self && !self.isDirectory()) return new SearchRefusedFileError(names.values().next().value!.path, `lies in ${folder}, which became a ${self.isSymbolicLink() ? 'link' : 'file'} while searched`);
      entries = readdirSync(folder, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const entry of entries) {
      const file = names.get(entry.name);
      if (!file || entry.isFile()) continue;
      return new SearchRefusedFileError(file.path, entry.isSymbolicLink() ? 'became a link while searched' : `became a ${entry.isFIFO() ? 'FIFO' : entry.isSocket() ? 'socket' : entry.isCharacterDevice() ? 'character device' : entry.isBlockDevice() ? 'block device' : 'folder'} while searched`);
    }
  }
  return undefined;
}

/** A batch's files by folder, then by name: what swappedFile() lists. */
function byFolder(files: readonly PlannedFile[]): Map<string, Map<string, PlannedFile>> {
  const folders = new Map<string, Map<string, PlannedFile>>();
  for (const file of files) {
    const folder = dirname(file.abs);
    let names = folders.get(folder);
    if (!names) folders.set(folder, (names = new Map()));
    names.set(basename(file.abs), file);
  }
  return folders;
}

/** Path arguments in plan order, cut into batches under the argument limit, and into at least `concurrency` for a large plan. */
function splitIntoBatches<T extends { arg: string }>(paths: readonly T[], batching: RipgrepBatching): T[][] {
  const total = paths.reduce((sum, path) => sum + path.arg.length + 1, 0);
  const wanted = Math.max(Math.ceil(total / batching.argBytes), paths.length >= batching.splitFiles ? batching.concurrency : 1);
  const target = Math.min(batching.argBytes, Math.ceil(total / wanted));
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const path of paths) {
    const size = path.arg.length + 1;
    if (current.length > 0 && bytes + size > target) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(path);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** The deepest folder holding every file ('' when they share none but the root). */
function commonFolder(files: readonly PlannedFile[]): string {
  if (files.length === 0) return '';
  let base = dirname(files[0]!.abs);
  for (const file of files) {
    while (base && !file.abs.startsWith(base + sep)) {
      const up = dirname(base);
      base = up === base ? '' : up;
    }
  }
  return base === sep ? '' : base;
}

interface RunControl {
  /** The caller's: the search rejects. */
  signal: AbortSignal | undefined;
  /** Ends a batch whose hits are no longer needed ('stopped'). */
  stop: AbortSignal;
  /** Looks at the batch's files while it runs; an error ends the batch (killed) and is thrown. */
  sweep: () => Promise<Error | undefined>;
  sweepMs: number;
}

function runRipgrep(binary: string, args: string[], cwd: string, cap: number, control: RunControl, onMatch: (match: RgMatch) => void): Promise<'done' | 'capped' | 'refused' | 'stopped'> {
  const { signal, stop } = control;
  return new Promise((resolve, reject) => {
    const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'], env: {}, ...(cwd ? { cwd } : {}) });
    let pending = '';
    let matches = 0;
    let capped = false;
    let stderr = '';
    let swapped: Error | undefined;
    let sweepTimer: NodeJS.Timeout | undefined;
    const abort = (): void => {
      child.kill();
    };
    // The first look after sweepMs, then at doubling intervals: a batch slowed down by a busy machine
    // is not made slower still by a look at every file each second, and a FIFO swapped in still ends
    // the search within about as long as the batch had already run.
    const scheduleSweep = (delay: number): void => {
      sweepTimer = setTimeout(() => {
        void control.sweep().then((error) => {
          if (error) {
            swapped ??= error;
            child.kill('SIGKILL');
          } else if (child.exitCode === null && child.signalCode === null) {
            scheduleSweep(delay * 2);
          }
        });
      }, delay);
    };
    scheduleSweep(control.sweepMs);
    signal?.addEventListener('abort', abort, { once: true });
    stop.addEventListener('abort', abort, { once: true });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      pending += chunk;
      let nl = pending.indexOf('\n');
      while (nl !== -1) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        nl = pending.indexOf('\n');
        if (!line.startsWith('{"type":"match"')) continue;
        onMatch(JSON.parse(line) as RgMatch);
        if (++matches >= cap && !capped) {
          capped = true;
          child.kill();
        }
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < 4096) stderr += chunk.toString('utf8');
    });
    child.on('error', () => resolve('refused'));
    child.on('close', (code) => {
      clearTimeout(sweepTimer);
      signal?.removeEventListener('abort', abort);
      stop.removeEventListener('abort', abort);
      if (signal?.aborted) reject(signal.reason instanceof Error ? signal.reason : new Error('search stopped'));
      else if (swapped) reject(swapped);
      else if (capped) resolve('capped');
      else if (stop.aborted) resolve('stopped');
      // 0: matches, 1: none; 2 with output is a read error on some file, 2 without a refused pattern.
      else if (code === 0 || code === 1 || (code === 2 && matches > 0)) resolve('done');
      else resolve(stderr.includes('regex') || code === 2 ? 'refused' : 'done');
    });
  });
}
