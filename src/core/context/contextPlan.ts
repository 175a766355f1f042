// Plans what `rlm ask <paths>` binds, without reading the files: a walk and `stat` give the file list
// and sizes, and the first few KB of the first file give the prefix. That is all the root's first
// request needs, so it can go out while the files are read (contextStream.ts streams them into the REPL).
//
// The rules are those of reading: one file gives a text context; folders or several paths a path ->
// text dict in sorted order. Folders honour .gitignore files (at every level), skip binaries (by name
// here, by content when read), over-size files and .git; the total is capped. Only regular files and
// folders are read: a device, FIFO or socket named directly is refused, and one inside a folder is
// skipped with its reason. Symlinks inside a folder are never followed: one leading out of the folder
// would read what the user did not choose, one back up would loop, and one to elsewhere inside is read
// at its own path.
import type { Dirent, Stats } from 'node:fs';
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { BINARY_SNIFF_BYTES, binaryReason } from './binaryDetection';
import { compressionOf } from './compressedFormats';
import { planCompressedFile } from './compressedPlan';
import { plannedFolderFile, readableByName } from './folderFile';
import { planNotebookFile } from './notebookRead';
import { isNotebookPath } from './notebookJson';
import { planPdfFile } from './pdfPlan';
import { newPdfSession } from './pdfDocument';
import { folderPdfFacts } from './pdfInFolder';
import { isPdfPath } from './pdfPages';
import { GitignoreLayers } from './gitignoreLayers';
import { BinaryFileError, ContextTooLargeError, NoReadableFilesError, PathNotFoundError, SpecialFileError } from './contextErrors';
import { LOG_SETS_MAX } from './contextTypes';
import type { ContextPlan, InputFormat, PlannedFile, PlanProgress, SkipReason, TargetDescription } from './contextTypes';
import { orderRotatedLogs } from './rotatedLogs';
import { specialKindOf } from './localFileRead';
import type { SpecialKind } from './localFileRead';
import { readLocalFileInto } from './localFileReadSync';
import type { LocalReadInto } from './localFileReadSync';
import { isWithin } from './pathContainment';
import { TimeSlicer } from './timeSlicer';

type FileStat = Pick<Stats, 'size' | 'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>;
type Entry = Pick<Dirent, 'name' | 'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>;

/**
 * The file-system calls used, synchronous: a walk makes one call per entry, and through the thread pool
 * each would cost more than the call itself. The walk runs in time slices (timeSlicer.ts). Injectable so
 * tests can stage races and failures.
 */
export interface ContextFs {
  stat(path: string): FileStat;
  lstat(path: string): FileStat;
  realpath(path: string): string;
  /** The entries of a folder with their types (no stat per entry). */
  readdir(path: string): Entry[];
  /** Reads a file into `into`, refusing what is not a regular file (localFileReadSync.ts). */
  readInto(path: string, into: Uint8Array, options?: { noFollow?: boolean; head?: boolean; plannedBytes?: number; within?: readonly string[] }): LocalReadInto;
}

export const nodeContextFs: ContextFs = {
  stat: (path) => statSync(path),
  lstat: (path) => lstatSync(path),
  realpath: (path) => realpathSync.native(path),
  readdir: (path) => readdirSync(path, { withFileTypes: true }),
  readInto: readLocalFileInto,
};

export interface PlanOptions {
  /** Paths are shown relative to this folder. Default process.cwd(). */
  cwd?: string;
  /** Files in folders larger than this are skipped. Default 8 MB. */
  maxFileBytes?: number;
  /** A folder up to this size is bound eagerly (read whole into the REPL). Default 256 MB, the REPL's own limit. */
  maxTotalBytes?: number;
  /**
   * A folder over maxTotalBytes but within this is bound lazily (texts fetched when read); past it,
   * refused. Default 16 GB; set it to maxTotalBytes or below to refuse every folder over the eager limit.
   */
  maxListedBytes?: number;
  /** Updated as the walk goes, for a first request sent before it ends (askCommand.ts). */
  progress?: PlanProgress;
  fs?: ContextFs;
}

const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;
const DEFAULT_MAX_TOTAL_BYTES = 256 * 1024 * 1024;
const DEFAULT_MAX_LISTED_BYTES = 16 * 1024 * 1024 * 1024;
/** A .gitignore larger than this is not a real one; it is left unread rather than held in memory. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

type Skipped = TargetDescription['skipped'][number];

interface Walk {
  fs: ContextFs;
  cwd: string;
  maxFileBytes: number;
  maxTotalBytes: number;
  /** Past this the walk stops: the folder is refused, however much more it holds. */
  listLimit: number;
  progress: PlanProgress | undefined;
  files: PlannedFile[];
  skipped: Skipped[];
  totalBytes: number;
  /** Real paths planned, so a file named twice (directly and in its folder) is read once. */
  seen: Set<string>;
  dedupe: boolean;
  slicer: TimeSlicer;
  /** Where .gitignore files are read: one buffer for the whole walk. */
  scratch: Uint8Array;
  /** The reading session of the folder's PDFs (pdfDocument.ts), taken when the first is found. */
  pdfSession?: number;
}

export async function planPaths(paths: string[], options: PlanOptions = {}): Promise<ContextPlan> {
  if (paths.length === 0) throw new TypeError('planPaths: no paths given');
  const fs = options.fs ?? nodeContextFs;
  const cwd = options.cwd ?? process.cwd();
  const maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const walk: Walk = {
    fs,
    cwd,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    maxTotalBytes,
    listLimit: Math.max(maxTotalBytes, options.maxListedBytes ?? DEFAULT_MAX_LISTED_BYTES),
    progress: options.progress,
    files: [],
    skipped: [],
    totalBytes: 0,
    seen: new Set(),
    dedupe: paths.length > 1,
    slicer: new TimeSlicer(),
    scratch: new Uint8Array(MAX_GITIGNORE_BYTES + 1),
  };
  // Named paths are followed (the user chose them), but must be a regular file or a folder: a device
  // or FIFO is refused before anything is opened, so nothing blocks or reads without end.
  const named = paths.map((p) => {
    const abs = resolve(cwd, p);
    const st = statOrThrow(fs, abs, p);
    const special = specialKindOf(st);
    if (special) throw new SpecialFileError(p, special);
    return { abs, stat: st };
  });
  const only = named[0];
  if (named.length === 1 && only?.stat.isFile()) return planSingleFile(walk, only.abs, only.stat.size);

  for (const entry of named) {
    if (entry.stat.isDirectory()) {
      const real = fs.realpath(entry.abs);
      await walkFolder(walk, entry.abs, real, enclosingGitignores(walk, entry.abs), real);
    } else {
      const real = fs.realpath(entry.abs);
      if (!walk.seen.has(real)) {
        walk.seen.add(real);
        addFile(walk, { path: displayPath(cwd, entry.abs), abs: entry.abs, bytes: entry.stat.size });
      }
    }
  }
  const listLimit = walk.listLimit;
  if (walk.totalBytes > listLimit) throw new ContextTooLargeError(walk.totalBytes, listLimit, largestParts(walk.files));
  const lazy = walk.totalBytes > walk.maxTotalBytes;
  if (walk.files.length === 0) throw new NoReadableFilesError(paths, walk.skipped.length);
  walk.files.sort(byPath);
  walk.skipped.sort(byPath);
  const rotated = orderRotatedLogs(walk.files);
  walk.files = rotated.files;
  const format = folderInputFormat(walk.files, rotated.sets);
  const first = walk.files[0]!;
  const head = readHeadOrEmpty(fs, first.abs);
  return {
    shape: 'files',
    files: walk.files,
    head,
    totalBytes: walk.totalBytes,
    maxFileBytes: walk.maxFileBytes,
    maxTotalBytes: walk.maxTotalBytes,
    ...(lazy ? { lazy: { listLimitBytes: listLimit, roots: named.map((n) => fs.realpath(n.abs)) } } : {}),
    target: { kind: named.length === 1 ? 'folder' : 'files', paths: named.map((n) => displayPath(cwd, n.abs)), totalBytes: walk.totalBytes, fileCount: walk.files.length, skipped: walk.skipped },
    ...(format ? { format } : {}),
  };
}

/** The metadata's word on compressed files, rotated sets, notebooks and PDFs in a folder, or undefined when there are none. */
export function folderInputFormat(files: readonly PlannedFile[], sets: ReadonlyArray<{ log: string; parts: number }> = []): InputFormat | undefined {
  const compressedFiles = files.reduce((n, f) => n + (f.compression ? 1 : 0), 0);
  const notebooks = files.reduce((n, f) => n + (f.notebook ? 1 : 0), 0);
  const pdfs = folderPdfFacts(files);
  if (compressedFiles === 0 && sets.length === 0 && notebooks === 0 && !pdfs) return undefined;
  return {
    ...(compressedFiles ? { compressedFiles } : {}),
    ...(notebooks ? { notebooks } : {}),
    ...(pdfs ? { pdfs } : {}),
    ...(sets.length ? { logSets: sets.slice(0, LOG_SETS_MAX), ...(sets.length > LOG_SETS_MAX ? { logSetsOmitted: sets.length - LOG_SETS_MAX } : {}) } : {}),
  };
}

async function planSingleFile(walk: Walk, abs: string, size: number): Promise<ContextPlan> {
  const shown = displayPath(walk.cwd, abs);
  // The limit holds for a notebook's text, which is smaller than its JSON (images are named, not kept).
  if (isNotebookPath(shown)) return planNotebookFile(shown, abs, walk.maxTotalBytes);
  if (size > walk.maxTotalBytes) throw new ContextTooLargeError(size, walk.maxTotalBytes, [{ path: shown, bytes: size }]);
  const compression = compressionOf(shown);
  if (compression) return planCompressedFile(shown, abs, compression, walk.maxTotalBytes);
  if (isPdfPath(shown)) return planPdfFile(shown, abs, size, walk.maxTotalBytes);
  // The head decides binary now, so a binary file is refused before anything is sent anywhere.
  const head = readHead(walk.fs, abs);
  if (head.kind === 'special') throw new SpecialFileError(shown, head.special);
  const binary = binaryReason(shown, head.bytes);
  if (binary) throw new BinaryFileError(shown, binary);
  return {
    shape: 'text',
    files: [{ path: shown, abs, bytes: size }],
    head: head.bytes,
    totalBytes: size,
    maxFileBytes: walk.maxTotalBytes,
    maxTotalBytes: walk.maxTotalBytes,
    target: { kind: 'file', paths: [shown], totalBytes: size, fileCount: 1, skipped: [] },
  };
}

/** `dir` is the path as shown (through any link the user named); `dirReal` and `rootReal` are resolved. */
async function walkFolder(walk: Walk, dir: string, dirReal: string, layers: GitignoreLayers, rootReal: string): Promise<void> {
  await walk.slicer.yieldIfDue(walk.progress?.sliceMs);
  let entries: Entry[];
  try {
    entries = walk.fs.readdir(dir);
  } catch {
    walk.skipped.push({ path: displayPath(walk.cwd, dir), reason: 'unreadable' });
    return;
  }
  // Only a folder that has one pays for reading it.
  const own = entries.some((e) => e.name === '.gitignore') ? readGitignore(walk, dir) : undefined;
  const active = own === undefined ? layers : layers.with(posixPath(dir), own);
  // Shown paths are built from the folder's, not with path.relative per entry (a walk's main cost after the system calls).
  const dirShown = displayPath(walk.cwd, dir);
  const prefix = dirShown === '.' ? '' : `${dirShown}/`;
  for (const entry of entries) {
    const name = entry.name;
    if (name === '.git') continue;
    // Plain concatenation: `dir` is already normalised, and path.join per entry showed in profiles.
    const abs = dir.endsWith(sep) ? dir + name : dir + sep + name;
    const shown = prefix + name;
    // The walk never enters an ignored folder, so the entry's own verdict is the whole answer.
    if (!active.empty && active.ignoresEntry(posixPath(abs), entry.isDirectory())) {
      walk.skipped.push({ path: shown, reason: 'excluded' });
      continue;
    }
    if (entry.isSymbolicLink()) walk.skipped.push({ path: shown, ...judgeLink(walk, abs, dirReal, rootReal) });
    else if (entry.isDirectory()) await walkFolder(walk, abs, dirReal + sep + name, active, rootReal);
    else if (entry.isFile()) planFile(walk, abs, shown, walk.dedupe ? dirReal + sep + name : '');
    else walk.skipped.push({ path: shown, reason: 'special', detail: specialKindOf(entry) ?? 'special file' });
  }
}

function planFile(walk: Walk, abs: string, shown: string, real: string): void {
  // Only several named paths can name a file twice (links are not followed inside a folder).
  if (walk.dedupe) {
    if (walk.seen.has(real)) return;
    walk.seen.add(real);
  }
  if (!readableByName(shown)) {
    walk.skipped.push({ path: shown, reason: 'binary' });
    return;
  }
  let st: FileStat;
  try {
    st = walk.fs.lstat(abs);
  } catch {
    walk.skipped.push({ path: shown, reason: 'unreadable' });
    return;
  }
  if (!st.isFile()) {
    // Changed since the folder was listed: judged as what it is now.
    walk.skipped.push({ path: shown, reason: st.isSymbolicLink() ? 'link' : 'special', detail: st.isSymbolicLink() ? 'became a link while the folder was read' : (specialKindOf(st) ?? 'special file') });
    return;
  }
  const planned = plannedFolderFile(shown, abs, st.size, { maxFileBytes: walk.maxFileBytes, maxTotalBytes: walk.maxTotalBytes, pdfSession: () => (walk.pdfSession ??= newPdfSession()) });
  if (planned.kind === 'skipped') walk.skipped.push(planned.skipped);
  else addFile(walk, planned.file);
}

/** How many files the first request may list before the walk ends (as many as the metadata shows). */
const PROGRESS_FILES = 100;

function addFile(walk: Walk, file: PlannedFile): void {
  walk.files.push(file);
  walk.totalBytes += file.bytes;
  const progress = walk.progress;
  if (progress) {
    progress.fileCount = walk.files.length;
    progress.totalBytes = walk.totalBytes;
    if (progress.firstFiles.length < PROGRESS_FILES) progress.firstFiles.push(file);
  }
  // A folder past what may be listed is refused now: walking the rest of a huge tree would only say so later.
  if (walk.totalBytes > walk.listLimit) throw new ContextTooLargeError(walk.totalBytes, walk.listLimit, largestParts(walk.files), true);
}

/** Why a symlink inside a folder is not followed, in the words the skipped list shows. */
function judgeLink(walk: Walk, abs: string, dirReal: string, rootReal: string): { reason: SkipReason; detail: string } {
  let real: string;
  try {
    real = walk.fs.realpath(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { reason: 'link-loop', detail: 'a chain of links that never ends' };
    return { reason: 'unreadable', detail: code === 'ENOENT' ? 'a link to nothing' : `link not resolved (${code ?? 'error'})` };
  }
  if (!isWithin(real, rootReal)) return { reason: 'link-outside', detail: `link to ${real}, outside the folder` };
  let target: FileStat | undefined;
  try {
    target = walk.fs.stat(real);
  } catch {
    target = undefined;
  }
  if (target?.isDirectory() && isWithin(dirReal, real)) return { reason: 'link-loop', detail: `link back to ${displayPath(walk.cwd, real)}, a folder above it` };
  return { reason: 'link', detail: `link to ${displayPath(walk.cwd, real)}, read at that path` };
}

/** The first bytes of a file (the prefix, and the binary check of a file named alone). */
function readHead(fs: ContextFs, abs: string): { kind: 'read'; bytes: Uint8Array } | { kind: 'special'; special: SpecialKind } {
  const into = new Uint8Array(BINARY_SNIFF_BYTES);
  const read = fs.readInto(abs, into, { head: true });
  if (read.kind === 'special') return read;
  return { kind: 'read', bytes: read.kind === 'read' ? into.subarray(0, read.length) : new Uint8Array(0) };
}

function readHeadOrEmpty(fs: ContextFs, abs: string): Uint8Array {
  try {
    const head = readHead(fs, abs);
    return head.kind === 'read' ? head.bytes : new Uint8Array(0);
  } catch {
    return new Uint8Array(0);
  }
}

/**
 * The .gitignore files above a named folder that git would apply inside it: those of its enclosing
 * repository (the nearest folder above holding `.git`) down to the folder's parent. Outside a
 * repository, or at its root, there are none. The folder itself was named, so it is walked even when
 * they ignore it; they decide about what lies inside.
 */
function enclosingGitignores(walk: Walk, folder: string): GitignoreLayers {
  const above: string[] = [];
  let dir = folder;
  for (;;) {
    if (hasGitDir(walk, dir)) break;
    const parent = dirname(dir);
    if (parent === dir) return GitignoreLayers.empty();
    above.push(parent);
    dir = parent;
  }
  let layers = GitignoreLayers.empty();
  for (const parent of above.reverse()) {
    const text = readGitignore(walk, parent);
    if (text !== undefined) layers = layers.with(posixPath(parent), text);
  }
  return layers;
}

function hasGitDir(walk: Walk, dir: string): boolean {
  try {
    walk.fs.lstat(join(dir, '.git'));
    return true;
  } catch {
    return false;
  }
}

function readGitignore(walk: Walk, dir: string): string | undefined {
  try {
    const read = walk.fs.readInto(join(dir, '.gitignore'), walk.scratch);
    return read.kind === 'read' ? new TextDecoder().decode(walk.scratch.subarray(0, read.length)) : undefined;
  } catch {
    return undefined;
  }
}

function posixPath(abs: string): string {
  return sep === '/' ? abs : abs.split(sep).join('/');
}

function statOrThrow(fs: ContextFs, abs: string, given: string): FileStat {
  try {
    return fs.stat(abs);
  } catch (error) {
    // A link loop named directly is not "missing"; say what it is.
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new SpecialFileError(given, 'symlink loop');
    throw new PathNotFoundError(given);
  }
}

function byPath(a: { path: string }, b: { path: string }): number {
  return a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
}

/** POSIX path relative to cwd (absolute when on another drive). */
function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  const chosen = rel === '' ? '.' : isAbsolute(rel) ? abs : rel;
  return chosen.split(sep).join('/');
}

/** The biggest top-level parts, so the over-size message can suggest what to leave out. */
function largestParts(files: ReadonlyArray<{ path: string; bytes: number }>): Array<{ path: string; bytes: number }> {
  const byTop = new Map<string, number>();
  for (const file of files) {
    const parts = file.path.split('/');
    const top = parts.length > 2 ? parts.slice(0, 2).join('/') : file.path;
    byTop.set(top, (byTop.get(top) ?? 0) + file.bytes);
  }
  return [...byTop.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([path, bytes]) => ({ path, bytes }));
}

