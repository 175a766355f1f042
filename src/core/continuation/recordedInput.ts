// Where a recorded run's input may be read again. A .rlm.jsonl file is as hostile as anything else a
// repository ships (runs are recorded in ./.rlm/runs/ by default): its `target.paths` can name
// ~/.ssh/id_rsa as easily as src/. So `rlm continue`, a fork and VS Code's Continue…/Fork… re-read a
// recorded path only when its real path (every symlink resolved) lies inside a folder the user is
// working in: the CLI's working directory, the open workspace's folders. A path that climbs with `..`
// is refused before anything is resolved. Anything else is refused with the path named, and the caller
// tells the user how to give the input explicitly (`--context PATH`).
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { isWithin } from '../context/pathContainment';

/** The file-system calls used; injectable so tests can stage links and races. */
export interface RecordedInputFs {
  realpath(path: string): string;
  stat(path: string): { size: number; isFile(): boolean; isDirectory(): boolean };
}

const nodeFs: RecordedInputFs = { realpath: (p) => realpathSync.native(p), stat: (p) => statSync(p) };

/** A recorded path the user's folder does not hold: never read. `why` says what gave it away. */
export class RecordedInputOutsideError extends Error {
  readonly kind = 'RecordedInputOutsideError';
  constructor(
    readonly path: string,
    readonly folders: readonly string[],
    readonly why: 'climbs' | 'outside' | 'malformed',
    /** Where the path really leads (symlinks resolved), when it was resolved. */
    readonly real?: string,
  ) {
    super(`the recorded input ${path} ${why === 'climbs' ? 'climbs out of the folder with ..' : why === 'malformed' ? 'is not a usable path' : `lies outside ${folders.join(', ')}${real && real !== path ? ` (it leads to ${real})` : ''}`}, so it is not read`);
    this.name = 'RecordedInputOutsideError';
  }
}

/** The recorded paths are not found in any of the folders. */
export class RecordedInputMissingError extends Error {
  readonly kind = 'RecordedInputMissingError';
  constructor(
    readonly paths: readonly string[],
    readonly folders: readonly string[],
  ) {
    super(`the recorded input ${paths.join(', ')} is not found in ${folders.join(', ') || 'any folder'}`);
    this.name = 'RecordedInputMissingError';
  }
}

/** The record names no path to read (an unsaved buffer, a selection, or a file with no target). */
export class RecordedInputUnnamedError extends Error {
  readonly kind = 'RecordedInputUnnamedError';
  constructor() {
    super('the record does not name its input as files or folders on disk');
    this.name = 'RecordedInputUnnamedError';
  }
}

interface RecordedInputEntry {
  /** The path to bind, relative to `folder` and built from its real path ('/'-separated; '.' the folder itself). */
  path: string;
  /** As the record wrote it, for display. */
  recorded: string;
  real: string;
  /** 'other': a device, FIFO or socket, left to planPaths, which refuses it before opening it. */
  kind: 'file' | 'folder' | 'other';
  /** A file's size from stat; a folder's is not walked for (that would read the disk before consent). */
  bytes?: number;
}

export interface ReboundInput {
  /** The real path of the folder the paths were found in: the new run's working folder. */
  folder: string;
  entries: RecordedInputEntry[];
}

/**
 * The recorded paths, checked against `folders` (tried in order; the first that holds them all and
 * keeps every one inside wins). Nothing is opened: only realpath and stat.
 */
export function rebindRecordedInput(recorded: readonly unknown[] | undefined, folders: readonly string[], fs: RecordedInputFs = nodeFs): ReboundInput {
  if (!recorded?.length) throw new RecordedInputUnnamedError();
  const paths = recorded.map((p) => {
    if (typeof p !== 'string' || p === '' || p.includes('\0')) throw new RecordedInputOutsideError(String(p), folders, 'malformed');
    // Refused as written, whatever the disk says: a record has no reason to climb.
    if (p.split(/[\\/]/).includes('..')) throw new RecordedInputOutsideError(p, folders, 'climbs');
    return p;
  });
  let outside: RecordedInputOutsideError | undefined;
  for (const folder of folders) {
    let folderReal: string;
    try {
      folderReal = fs.realpath(folder);
    } catch {
      continue;
    }
    const found = entriesIn(paths, folder, folderReal, fs);
    if ('entries' in found) return { folder: folderReal, entries: found.entries };
    outside ??= found.outside;
  }
  if (outside) throw outside;
  throw new RecordedInputMissingError(paths, folders);
}

function entriesIn(paths: string[], folder: string, folderReal: string, fs: RecordedInputFs): { entries: RecordedInputEntry[] } | { outside?: RecordedInputOutsideError } {
  const entries: RecordedInputEntry[] = [];
  for (const path of paths) {
    const abs = isAbsolute(path) ? path : resolve(folder, path);
    let real: string;
    try {
      real = fs.realpath(abs);
    } catch {
      // Not here (or a dangling link): perhaps in the next folder.
      return {};
    }
    if (!isWithin(real, folderReal)) return { outside: new RecordedInputOutsideError(path, [folder], 'outside', real) };
    const stat = fs.stat(real);
    const kind = stat.isDirectory() ? 'folder' : stat.isFile() ? 'file' : 'other';
    const rel = relative(folderReal, real);
    entries.push({ path: rel === '' ? '.' : rel.split(sep).join('/'), recorded: path, real, kind, ...(kind === 'file' ? { bytes: stat.size } : {}) });
  }
  return { entries };
}
