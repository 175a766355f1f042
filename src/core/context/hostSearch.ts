// search() over a lazy folder, run on the host over the planned files only (so the gathering's
// include, exclude and .gitignore rules hold: nothing else is ever named to an engine). ripgrep when
// one is available and the pattern means the same there (ripgrepSearch.ts); otherwise a streamed
// RegExp scan, its regex run in a worker thread with a time limit (scanSearch.ts); patterns only Python
// runs are handed back to the REPL (`fallback`). Both engines check each file at read time as
// context[...] does: a regular file, reached without a link, inside the folder.
// Hits have Python's shape: path, 1-based line, start (characters into the file) and the line, clipped.
import { isConvertedFile } from './folderFile';
import { availableParallelism } from 'node:os';
import type { ContextFs } from './contextPlan';
import type { PlannedFile } from './contextTypes';
import { translatePythonRegex } from './pythonRegex';
import type { PythonPattern } from './pythonRegex';
import { ripgrepSearch } from './ripgrepSearch';
import type { RipgrepBatching } from './ripgrepSearch';
import { scanSearch } from './scanSearch';
import type { SearchOutcome } from './searchTypes';

interface SearchOptions {
  /** A ripgrep binary (VS Code's own, or `rg` on PATH); absent: the RegExp scan. */
  ripgrepPath?: string;
  /** The per-file read limit of the plan (a file past it is not searched, as it would not be bound). */
  maxFileBytes: number;
  /** Real paths of what the user named: a file is searched only when its open descriptor lies inside one. */
  within?: readonly string[];
  signal?: AbortSignal;
  /** How the planned files are shared among ripgrep processes (defaults below; tests make batches small). */
  ripgrepBatches?: Partial<RipgrepBatching>;
  /** The longest the RegExp may take over 1 MB of text before the search fails as too slow (default 2 s). */
  patternTimeLimitMs?: number;
  /** How often a running ripgrep's files are looked at for a FIFO or link swapped in (default 1 s). */
  sweepMs?: number;
  fs?: ContextFs;
}

/** Bytes of file-path arguments per ripgrep process, under each platform's limit (Windows: 32K characters of command line). */
const RG_ARG_BYTES = process.platform === 'win32' ? 24 * 1024 : process.platform === 'darwin' ? 512 * 1024 : 1024 * 1024;
// ripgrep works through its path arguments partly one after another, so for a large plan two
// processes side by side finish sooner than the same files in one or in turn: on the 100,000-file
// bench (2 cores), two batches in turn took 1.0 s, side by side 0.69 s, and rg over the folder 0.52 s.
const RG_BATCHING: RipgrepBatching = { argBytes: RG_ARG_BYTES, concurrency: Math.max(2, Math.min(4, availableParallelism())), splitFiles: 10_000 };
// Any sane pattern covers 1 MB in milliseconds; one that needs seconds backtracks without end.
const PATTERN_TIME_LIMIT_MS = 2000;
const SWEEP_MS = 1000;

export async function hostSearch(request: PythonPattern & { maxHits: number }, files: readonly PlannedFile[], options: SearchOptions): Promise<SearchOutcome> {
  const translated = translatePythonRegex(request);
  const maxHits = Math.max(0, Math.floor(request.maxHits));
  if (maxHits === 0) return { hits: [], truncated: false, engine: 'javascript', changed: [] };
  const common = { maxFileBytes: options.maxFileBytes, ...(options.within ? { within: options.within } : {}), ...(options.signal ? { signal: options.signal } : {}), ...(options.fs ? { fs: options.fs } : {}) };
  // ripgrep would search the compressed bytes: a folder holding compressed logs is scanned by the host,
  // which reads each one decompressed as context[...] does (a notebook as its text, not its JSON; a
  // PDF page as its extracted text).
  const anyCompressed = files.some(isConvertedFile);
  if (options.ripgrepPath && !anyCompressed && !('unsupported' in translated.rg)) {
    const viaRg = await ripgrepSearch(translated.rg, files, maxHits, { ...common, binary: options.ripgrepPath, batching: { ...RG_BATCHING, ...options.ripgrepBatches }, sweepMs: options.sweepMs ?? SWEEP_MS });
    if (viaRg) return viaRg;
  }
  if ('unsupported' in translated.js) return { fallback: `the host's engines do not support ${translated.js.unsupported}` };
  return scanSearch(translated.js, request.pattern, files, maxHits, { ...common, patternTimeLimitMs: options.patternTimeLimitMs ?? PATTERN_TIME_LIMIT_MS });
}
