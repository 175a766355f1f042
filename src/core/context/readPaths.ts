// Turns paths named on a command line into a ContextSource and a TargetDescription. One file gives
// a text context; folders or several paths give a path -> text dict in sorted order. Folders honour
// .gitignore files (at every level), skip binaries, over-size files and .git; the total is capped.
// Only regular files and folders are read: a device, FIFO or socket named directly is refused, and
// one inside a folder is skipped with its reason. Symlinks inside a folder are never followed: one
// leading out of the folder would read what the user did not choose, one back up would loop, and one
// to elsewhere inside is read at its own path. Every read stops at its limit, not after it.
import { lstat, readdir, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { binaryReason } from './binaryDetection';
import { BinaryFileError, ContextTooLargeError, NoReadableFilesError, PathNotFoundError, SpecialFileError } from './contextErrors';
import type { ContextFile, ContextSource, SkipReason, TargetDescription } from './contextTypes';
import { GitignoreLayers } from './gitignoreLayers';
import { readLocalFile, specialKindOf } from './localFileRead';
import { isWithin } from './pathContainment';
import type { LocalRead, LocalReadOptions } from './localFileRead';

type FileStat = Pick<Stats, 'size' | 'isFile' | 'isDirectory' | 'isSymbolicLink' | 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>;

/** The file-system calls used; injectable so tests can stage races and failures. */
export interface ContextFs {
  stat(path: string): Promise<FileStat>;
  lstat(path: string): Promise<FileStat>;
  realpath(path: string): Promise<string>;
  readdir(path: string): Promise<string[]>;
  readFile(path: string, options: LocalReadOptions): Promise<LocalRead>;
}

export const nodeContextFs: ContextFs = { stat, lstat, realpath, readdir: (path) => readdir(path), readFile: readLocalFile };

export interface ReadPathsOptions {
  /** Paths are shown relative to this folder. Default process.cwd(). */
  cwd?: string;
  /** Files in folders larger than this are skipped. Default 8 MB. */
  maxFileBytes?: number;
  /** The whole input may not exceed this. Default 256 MB, the REPL's own limit. */
  maxTotalBytes?: number;
  fs?: ContextFs;
}

export const DEFAULT_MAX_FILE_BYTES = 8 * 1024 * 1024;
export const DEFAULT_MAX_TOTAL_BYTES = 256 * 1024 * 1024;
/** A .gitignore larger than this is not a real one; it is left unread rather than held in memory. */
const MAX_GITIGNORE_BYTES = 1024 * 1024;

type Skipped = TargetDescription['skipped'][number];

interface Walk {
  fs: ContextFs;
  cwd: string;
  maxFileBytes: number;
  maxTotalBytes: number;
  files: ContextFile[];
  skipped: Skipped[];
  totalBytes: number;
  /** Set when a read stopped at the total limit: the size is then a lower bound. */
  overTotal: boolean;
  /** Files counted toward the total but not held: the one whose read stopped at the limit. */
  counted: Array<{ path: string; bytes: number }>;
  /** Real paths already read, so a file named twice (directly and in its folder) is read once. */
  seen: Set<string>;
}

export async function readPathsAsContext(paths: string[], options: ReadPathsOptions = {}): Promise<{ source: ContextSource; target: TargetDescription }> {
  if (paths.length === 0) throw new TypeError('readPathsAsContext: no paths given');
  const fs = options.fs ?? nodeContextFs;
  const cwd = options.cwd ?? process.cwd();
  const walk: Walk = {
    fs,
    cwd,
    maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES,
    maxTotalBytes: options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES,
    files: [],
    skipped: [],
    totalBytes: 0,
    overTotal: false,
    counted: [],
    seen: new Set(),
  };
  // Named paths are followed (the user chose them), but must be a regular file or a folder: a device
  // or FIFO is refused before anything is opened, so nothing blocks or reads without end.
  const stats = await Promise.all(
    paths.map(async (p) => {
      const abs = resolve(cwd, p);
      const st = await statOrThrow(fs, abs, p);
      const special = specialKindOf(st);
      if (special) throw new SpecialFileError(p, special);
      return { path: p, abs, stat: st };
    }),
  );
  const only = stats[0];
  if (stats.length === 1 && only?.stat.isFile()) return readSingleFile(walk, only.abs, only.stat.size);

  for (const entry of stats) {
    if (entry.stat.isDirectory()) await walkFolder(walk, entry.abs, await fs.realpath(entry.abs), GitignoreLayers.empty(), await fs.realpath(entry.abs));
    else await addFile(walk, entry.abs, true);
    if (walk.totalBytes > walk.maxTotalBytes) break;
  }
  if (walk.totalBytes > walk.maxTotalBytes) throw new ContextTooLargeError(walk.totalBytes, walk.maxTotalBytes, largestParts(walk), walk.overTotal);
  if (walk.files.length === 0) throw new NoReadableFilesError(paths, walk.skipped.length);
  walk.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const kind = stats.length === 1 ? 'folder' : 'files';
  return {
    source: { kind: 'files', files: walk.files },
    target: { kind, paths: stats.map((s) => displayPath(cwd, s.abs)), totalBytes: walk.totalBytes, fileCount: walk.files.length, skipped: walk.skipped },
  };
}

async function readSingleFile(walk: Walk, abs: string, size: number): Promise<{ source: ContextSource; target: TargetDescription }> {
  const shown = displayPath(walk.cwd, abs);
  if (size > walk.maxTotalBytes) throw new ContextTooLargeError(size, walk.maxTotalBytes, [{ path: shown, bytes: size }]);
  const read = await walk.fs.readFile(abs, { maxBytes: walk.maxTotalBytes });
  // The path was a regular file when looked at; these catch one swapped or grown since.
  if (read.kind === 'special') throw new SpecialFileError(shown, read.special);
  if (read.kind === 'too-large') {
    const seen = Math.max(read.bytesSeen, read.statBytes);
    throw new ContextTooLargeError(seen, walk.maxTotalBytes, [{ path: shown, bytes: seen }], read.bytesSeen > read.statBytes);
  }
  if (read.kind !== 'read') throw new SpecialFileError(shown, 'symlink');
  const content = read.bytes;
  const binary = binaryReason(shown, content.subarray(0, 8192));
  if (binary) throw new BinaryFileError(shown, binary);
  return {
    source: { kind: 'text', text: content, label: shown },
    target: { kind: 'file', paths: [shown], totalBytes: content.byteLength, fileCount: 1, skipped: [] },
  };
}

/** `dir` is the path as shown (through any link the user named); `dirReal` and `rootReal` are resolved. */
async function walkFolder(walk: Walk, dir: string, dirReal: string, layers: GitignoreLayers, rootReal: string): Promise<void> {
  const own = await readGitignore(walk.fs, dir);
  const active = own === undefined ? layers : layers.with(posixPath(dir), own);
  let names: string[];
  try {
    names = (await walk.fs.readdir(dir)).sort();
  } catch {
    walk.skipped.push({ path: displayPath(walk.cwd, dir), reason: 'unreadable' });
    return;
  }
  for (const name of names) {
    if (name === '.git') continue;
    const abs = join(dir, name);
    const shown = displayPath(walk.cwd, abs);
    let entry: FileStat;
    try {
      entry = await walk.fs.lstat(abs);
    } catch {
      walk.skipped.push({ path: shown, reason: 'unreadable' });
      continue;
    }
    // The walk never enters an ignored folder, so the entry's own verdict is the whole answer.
    if (active.ignoresEntry(posixPath(abs), entry.isDirectory())) {
      walk.skipped.push({ path: shown, reason: 'excluded' });
      continue;
    }
    if (entry.isSymbolicLink()) walk.skipped.push({ path: shown, ...(await judgeLink(walk, abs, dirReal, rootReal)) });
    else if (entry.isDirectory()) await walkFolder(walk, abs, join(dirReal, name), active, rootReal);
    else if (entry.isFile()) await addFile(walk, abs, false);
    else walk.skipped.push({ path: shown, reason: 'special', detail: specialKindOf(entry) ?? 'special file' });
    // Stop reading once over the total: the error reports the size so far, which already says enough.
    if (walk.totalBytes > walk.maxTotalBytes) return;
  }
}

/** Why a symlink inside a folder is not followed, in the words the skipped list shows. */
async function judgeLink(walk: Walk, abs: string, dirReal: string, rootReal: string): Promise<{ reason: SkipReason; detail: string }> {
  let real: string;
  try {
    real = await walk.fs.realpath(abs);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { reason: 'link-loop', detail: 'a chain of links that never ends' };
    return { reason: 'unreadable', detail: code === 'ENOENT' ? 'a link to nothing' : `link not resolved (${code ?? 'error'})` };
  }
  if (!isWithin(real, rootReal)) return { reason: 'link-outside', detail: `link to ${real}, outside the folder` };
  let target: FileStat | undefined;
  try {
    target = await walk.fs.stat(real);
  } catch {
    target = undefined;
  }
  if (target?.isDirectory() && isWithin(dirReal, real)) return { reason: 'link-loop', detail: `link back to ${displayPath(walk.cwd, real)}, a folder above it` };
  return { reason: 'link', detail: `link to ${displayPath(walk.cwd, real)}, read at that path` };
}

/** Adds a text file; binaries and over-size files are skipped (a binary named directly is an error). */
async function addFile(walk: Walk, abs: string, namedDirectly: boolean): Promise<void> {
  const shown = displayPath(walk.cwd, abs);
  let key: string;
  try {
    key = await walk.fs.realpath(abs);
  } catch {
    walk.skipped.push({ path: shown, reason: 'unreadable' });
    return;
  }
  if (walk.seen.has(key)) return;
  walk.seen.add(key);
  const remaining = walk.maxTotalBytes - walk.totalBytes;
  // A file in a folder stops at the per-file limit; a file named directly only at the total.
  const cap = namedDirectly ? remaining : Math.min(walk.maxFileBytes, remaining);
  let read: LocalRead;
  try {
    // Inside a folder the walk has looked at this entry and found no link; O_NOFOLLOW holds it to that.
    read = await walk.fs.readFile(abs, { maxBytes: cap, noFollow: !namedDirectly });
  } catch {
    walk.skipped.push({ path: shown, reason: 'unreadable' });
    return;
  }
  if (read.kind === 'special') {
    if (namedDirectly) throw new SpecialFileError(shown, read.special);
    walk.skipped.push({ path: shown, reason: 'special', detail: read.special });
    return;
  }
  if (read.kind === 'link') {
    walk.skipped.push({ path: shown, reason: 'link', detail: 'became a link while the folder was read' });
    return;
  }
  if (read.kind === 'too-large') {
    const size = Math.max(read.bytesSeen, read.statBytes);
    if (!namedDirectly && size > walk.maxFileBytes) {
      walk.skipped.push({ path: shown, reason: 'too-large', bytes: size });
      return;
    }
    // Over what is left of the total: counted (as a lower bound) so the caller refuses the input.
    walk.counted.push({ path: shown, bytes: size });
    walk.totalBytes += size;
    walk.overTotal = walk.overTotal || read.bytesSeen > read.statBytes;
    return;
  }
  const content = read.bytes;
  const binary = binaryReason(shown, content.subarray(0, 8192));
  if (binary) {
    if (namedDirectly) throw new BinaryFileError(shown, binary);
    walk.skipped.push({ path: shown, reason: 'binary', bytes: content.byteLength });
    return;
  }
  walk.files.push({ path: shown, content });
  walk.totalBytes += content.byteLength;
}

async function readGitignore(fs: ContextFs, dir: string): Promise<string | undefined> {
  try {
    const read = await fs.readFile(join(dir, '.gitignore'), { maxBytes: MAX_GITIGNORE_BYTES });
    return read.kind === 'read' ? new TextDecoder().decode(read.bytes) : undefined;
  } catch {
    return undefined;
  }
}

function posixPath(abs: string): string {
  return abs.split(sep).join('/');
}

async function statOrThrow(fs: ContextFs, abs: string, given: string): Promise<FileStat> {
  try {
    return await fs.stat(abs);
  } catch (error) {
    // A link loop named directly is not "missing"; say what it is.
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new SpecialFileError(given, 'symlink loop');
    throw new PathNotFoundError(given);
  }
}

/** POSIX path relative to cwd (absolute when on another drive). */
export function displayPath(cwd: string, abs: string): string {
  const rel = relative(cwd, abs);
  const chosen = rel === '' ? '.' : isAbsolute(rel) ? abs : rel;
  return chosen.split(sep).join('/');
}

/** The biggest top-level parts, so the over-size message can suggest what to leave out. */
function largestParts(walk: Walk): Array<{ path: string; bytes: number }> {
  const byTop = new Map<string, number>();
  const sized = [...walk.files.map((f) => ({ path: f.path, bytes: typeof f.content === 'string' ? Buffer.byteLength(f.content) : f.content.byteLength })), ...walk.counted];
  for (const file of sized) {
    const parts = file.path.split('/');
    const top = parts.length > 2 ? parts.slice(0, 2).join('/') : file.path;
    byTop.set(top, (byTop.get(top) ?? 0) + file.bytes);
  }
  return [...byTop.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([path, bytes]) => ({ path, bytes }));
}
