// The host's side of a lazy `context` (a folder over the eager limit): answers the REPL's reads and
// searches. The request comes from code the model wrote, so it is checked whole: only files of the
// bound plan are served (a path not listed, `..`, an absolute path or an excluded file is simply not a
// key), and each file is checked when it is read, on the descriptor the host holds (planReader.ts with
// `within`): opened without following a link or blocking, a regular file (a FIFO or device swapped in
// is refused with the reason), its real path inside what the user named, read up to the plan's per-file
// limit. search() checks the files it reports the same way (hostSearch.ts). Every file served is
// counted, so the cell's result and the trajectory say which files were read and how much.
import { parse } from 'node:path';
import { hostSearch } from '../context/hostSearch';
import { readAnyPlannedInto } from '../context/planReader';
import type { ContextPlan, PlannedFile } from '../context/contextTypes';
import { InvalidContextError } from './replErrors';
import type { ContextCall, ContextReads } from './replTypes';

/** Most files in one read request, and most bytes planned for them: a batch, not the whole folder. */
const MAX_READ_FILES = 4096;
const MAX_READ_BYTES = 256 * 1024 * 1024;
const MAX_SEARCH_HITS = 10_000;
const MAX_PATTERN_CHARS = 10_000;
/** Paths kept per cell for the trajectory; the counts are always whole. */
const PATHS_KEPT = 200;

interface LazyHostOptions {
  ripgrepPath?: string;
  /** The longest a search's RegExp may take over 1 MB (hostSearch.ts has the default). */
  patternTimeLimitMs?: number;
}

export class LazyContextHost {
  private readonly byPath = new Map<string, PlannedFile>();
  private readonly scratch: Uint8Array;
  private readonly decoder = new TextDecoder('utf-8');
  private reads: ContextReads = emptyReads();

  constructor(
    private readonly plan: ContextPlan,
    private readonly options: LazyHostOptions = {},
  ) {
    for (const file of plan.files) this.byPath.set(file.path, file);
    this.scratch = new Uint8Array(plan.maxFileBytes + 1);
  }

  /** What the cell read so far, and a fresh count for the next one. */
  takeReads(): ContextReads | undefined {
    const reads = this.reads;
    this.reads = emptyReads();
    return reads.files || reads.searches ? reads : undefined;
  }

  /** One request from Python; the answer is JSON text (the bridge's one result string). */
  async answer(call: ContextCall, signal: AbortSignal): Promise<string> {
    if (call.kind === 'context_read') return JSON.stringify(await this.read(call.paths));
    const paths = call.paths;
    const files = paths === null ? this.plan.files : paths.map((p) => this.fileOf(p));
    if (call.pattern.length > MAX_PATTERN_CHARS) throw new InvalidContextError(`search: the pattern is over ${MAX_PATTERN_CHARS} characters`);
    const outcome = await hostSearch({ pattern: call.pattern, flags: call.flags, maxHits: Math.min(MAX_SEARCH_HITS, call.maxHits) }, files, {
      ...(this.options.ripgrepPath ? { ripgrepPath: this.options.ripgrepPath } : {}),
      ...(this.options.patternTimeLimitMs ? { patternTimeLimitMs: this.options.patternTimeLimitMs } : {}),
      maxFileBytes: this.plan.maxFileBytes,
      within: this.within(),
      signal,
    });
    this.reads.searches += 1;
    this.reads.searchedBytes += files.reduce((n, f) => n + f.bytes, 0);
    return JSON.stringify(outcome);
  }

  private fileOf(path: string): PlannedFile {
    const file = this.byPath.get(path);
    if (!file) throw new InvalidContextError(`no file ${JSON.stringify(path.slice(0, 200))} in context: only the files listed in context are served`);
    return file;
  }

  private async read(paths: string[]): Promise<{ texts: Array<string | null>; errors: Array<string | null> }> {
    if (paths.length > MAX_READ_FILES) throw new InvalidContextError(`a context read asks for ${paths.length} files; at most ${MAX_READ_FILES} at a time`);
    const files = paths.map((p) => this.fileOf(p));
    const planned = files.reduce((n, f) => n + f.bytes, 0);
    if (planned > MAX_READ_BYTES && files.length > 1) throw new InvalidContextError(`a context read asks for ${planned} bytes; at most ${MAX_READ_BYTES} at a time`);
    const texts: Array<string | null> = [];
    const errors: Array<string | null> = [];
    const within = this.within();
    for (const file of files) {
      const read = await readAnyPlannedInto(file, this.scratch, undefined, within);
      if (read.kind !== 'read') {
        texts.push(null);
        errors.push(read.kind === 'skipped' ? `${read.skipped.reason}${read.skipped.detail ? ` (${read.skipped.detail})` : ''}` : 'grew past the per-file limit');
        continue;
      }
      texts.push(this.decoder.decode(this.scratch.subarray(0, read.length)));
      errors.push(null);
      this.reads.files += 1;
      this.reads.bytes += read.length;
      if (this.reads.paths.length < PATHS_KEPT) this.reads.paths.push(file.path);
    }
    return { texts, errors };
  }

  /**
   * Where every file served must really lie: the real paths of what the user named. A plan without them
   * (built by hand) still has each file's type checked on its descriptor; any place on its drive will do.
   */
  private within(): readonly string[] {
    return this.plan.lazy?.roots ?? [...new Set(this.plan.files.slice(0, 1).map((f) => parse(f.abs).root))];
  }
}

function emptyReads(): ContextReads {
  return { files: 0, bytes: 0, paths: [], searches: 0, searchedBytes: 0 };
}

/** The shape check of a context call from Python: anything else is refused before it reaches the host. */
export function isContextCall(value: unknown): value is ContextCall {
  if (!value || typeof value !== 'object') return false;
  const call = value as Record<string, unknown>;
  if (call.kind === 'context_read') return Array.isArray(call.paths) && call.paths.every((p) => typeof p === 'string');
  if (call.kind !== 'context_search') return false;
  return (
    typeof call.pattern === 'string' &&
    typeof call.flags === 'string' &&
    /^[isxa]*$/.test(call.flags) &&
    typeof call.maxHits === 'number' &&
    Number.isFinite(call.maxHits) &&
    (call.paths === null || (Array.isArray(call.paths) && call.paths.every((p) => typeof p === 'string')))
  );
}
