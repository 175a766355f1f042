// Turns paths named on a command line into a ContextSource and a TargetDescription. One file gives
// a text context; folders or several paths give a path -> text dict in sorted order. Folders honour
// .gitignore files (at every level), skip binaries, over-size files and .git; the total is capped.
import * as nodeFs from 'node:fs/promises';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import ignore from 'ignore';
import type { Ignore } from 'ignore';
import { binaryReason } from './binaryDetection';
import { BinaryFileError, ContextTooLargeError, NoReadableFilesError, PathNotFoundError } from './contextErrors';
import type { ContextFile, ContextSource, TargetDescription } from './contextTypes';

/** The fs calls used, injectable for tests. */
export interface ContextFs {
  stat(path: string): Promise<{ size: number; isFile(): boolean; isDirectory(): boolean }>;
  lstat(path: string): Promise<{ isSymbolicLink(): boolean }>;
  readdir(path: string): Promise<string[]>;
  readFile(path: string): Promise<Uint8Array>;
}

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

type Skipped = TargetDescription['skipped'][number];

interface Walk {
  fs: ContextFs;
  cwd: string;
  maxFileBytes: number;
  files: ContextFile[];
  skipped: Skipped[];
  totalBytes: number;
  seen: Set<string>;
}

interface IgnoreLayer {
  dir: string;
  rules: Ignore;
}

export async function readPathsAsContext(paths: string[], options: ReadPathsOptions = {}): Promise<{ source: ContextSource; target: TargetDescription }> {
  if (paths.length === 0) throw new TypeError('readPathsAsContext: no paths given');
  const fs = options.fs ?? (nodeFs as unknown as ContextFs);
  const cwd = options.cwd ?? process.cwd();
  const maxTotalBytes = options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES;
  const walk: Walk = { fs, cwd, maxFileBytes: options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES, files: [], skipped: [], totalBytes: 0, seen: new Set() };
  const stats = await Promise.all(paths.map(async (p) => ({ path: p, abs: resolve(cwd, p), stat: await statOrThrow(fs, resolve(cwd, p), p) })));
  const only = stats[0];
  if (stats.length === 1 && only?.stat.isFile()) return readSingleFile(walk, only.abs, only.stat.size, maxTotalBytes);

  for (const entry of stats) {
    if (entry.stat.isDirectory()) await walkFolder(walk, entry.abs, [], maxTotalBytes);
    else await addFile(walk, entry.abs, entry.stat.size, true);
  }
  if (walk.totalBytes > maxTotalBytes) throw new ContextTooLargeError(walk.totalBytes, maxTotalBytes, largestParts(walk.files));
  if (walk.files.length === 0) throw new NoReadableFilesError(paths, walk.skipped.length);
  walk.files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const kind = stats.length === 1 ? 'folder' : 'files';
  return {
    source: { kind: 'files', files: walk.files },
    target: { kind, paths: stats.map((s) => displayPath(cwd, s.abs)), totalBytes: walk.totalBytes, fileCount: walk.files.length, skipped: walk.skipped },
  };
}

async function readSingleFile(walk: Walk, abs: string, size: number, maxTotalBytes: number): Promise<{ source: ContextSource; target: TargetDescription }> {
  const shown = displayPath(walk.cwd, abs);
  if (size > maxTotalBytes) throw new ContextTooLargeError(size, maxTotalBytes, [{ path: shown, bytes: size }]);
  const content = await walk.fs.readFile(abs);
  const binary = binaryReason(shown, content.subarray(0, 8192));
  if (binary) throw new BinaryFileError(shown, binary);
  return {
    source: { kind: 'text', text: content, label: shown },
    target: { kind: 'file', paths: [shown], totalBytes: content.byteLength, fileCount: 1, skipped: [] },
  };
}

async function walkFolder(walk: Walk, dir: string, layers: IgnoreLayer[], maxTotalBytes: number): Promise<void> {
  const own = await readGitignore(walk.fs, dir);
  const active = own ? [...layers, { dir, rules: own }] : layers;
  let names: string[];
  try {
    names = (await walk.fs.readdir(dir)).sort();
  } catch {
    walk.skipped.push({ path: displayPath(walk.cwd, dir), reason: 'unreadable' });
    return;
  }
  for (const name of names) {
    const abs = join(dir, name);
    const shown = displayPath(walk.cwd, abs);
    if (name === '.git') continue;
    let stat;
    try {
      if ((await walk.fs.lstat(abs)).isSymbolicLink()) {
        // Linked folders could loop; linked files are read like any other file.
        stat = await walk.fs.stat(abs);
        if (stat.isDirectory()) {
          walk.skipped.push({ path: shown, reason: 'excluded' });
          continue;
        }
      } else stat = await walk.fs.stat(abs);
    } catch {
      walk.skipped.push({ path: shown, reason: 'unreadable' });
      continue;
    }
    if (isIgnored(active, abs, stat.isDirectory())) {
      walk.skipped.push({ path: shown, reason: 'excluded' });
      continue;
    }
    if (stat.isDirectory()) await walkFolder(walk, abs, active, maxTotalBytes);
    else if (stat.isFile()) await addFile(walk, abs, stat.size, false);
    // Stop reading once over the total: the error reports the size so far, which already says enough.
    if (walk.totalBytes > maxTotalBytes) return;
  }
}

/** Adds a text file; binaries and over-size files are skipped (a binary named directly is an error). */
async function addFile(walk: Walk, abs: string, size: number, namedDirectly: boolean): Promise<void> {
  const shown = displayPath(walk.cwd, abs);
  if (walk.seen.has(abs)) return;
  walk.seen.add(abs);
  if (size > walk.maxFileBytes && !namedDirectly) {
    walk.skipped.push({ path: shown, reason: 'too-large', bytes: size });
    return;
  }
  let content: Uint8Array;
  try {
    content = await walk.fs.readFile(abs);
  } catch {
    walk.skipped.push({ path: shown, reason: 'unreadable', bytes: size });
    return;
  }
  const binary = binaryReason(shown, content.subarray(0, 8192));
  if (binary) {
    if (namedDirectly) throw new BinaryFileError(shown, binary);
    walk.skipped.push({ path: shown, reason: 'binary', bytes: content.byteLength });
    return;
  }
  walk.files.push({ path: shown, content });
  walk.totalBytes += content.byteLength;
}

async function readGitignore(fs: ContextFs, dir: string): Promise<Ignore | undefined> {
  try {
    const text = new TextDecoder().decode(await fs.readFile(join(dir, '.gitignore')));
    return ignore().add(text);
  } catch {
    return undefined;
  }
}

function isIgnored(layers: IgnoreLayer[], abs: string, isDir: boolean): boolean {
  for (const layer of layers) {
    const rel = relative(layer.dir, abs).split(sep).join('/');
    if (rel && !rel.startsWith('..') && layer.rules.ignores(isDir ? `${rel}/` : rel)) return true;
  }
  return false;
}

async function statOrThrow(fs: ContextFs, abs: string, given: string): Promise<Awaited<ReturnType<ContextFs['stat']>>> {
  try {
    return await fs.stat(abs);
  } catch {
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
function largestParts(files: ContextFile[]): Array<{ path: string; bytes: number }> {
  const byTop = new Map<string, number>();
  for (const file of files) {
    const parts = file.path.split('/');
    const top = parts.length > 2 ? parts.slice(0, 2).join('/') : file.path;
    const size = typeof file.content === 'string' ? Buffer.byteLength(file.content) : file.content.byteLength;
    byTop.set(top, (byTop.get(top) ?? 0) + size);
  }
  return [...byTop.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 3)
    .map(([path, bytes]) => ({ path, bytes }));
}
