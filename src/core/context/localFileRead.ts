// Reads one local file for `context` without trusting its name or its stat: the file is opened first
// (non-blocking, so a FIFO cannot hang the open; optionally refusing a symlink at the last step), the
// open handle is checked to be a regular file (so a path swapped after a check cannot smuggle in a
// device), and reading stops at the limit instead of after it (so /dev/zero, a /proc file that
// reports size 0, or a log that grows while read cannot take memory without bound).
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { realPathOfDescriptor } from './descriptorPath';
import { isWithin } from './pathContainment';

export type SpecialKind = 'FIFO' | 'socket' | 'character device' | 'block device' | 'special file';

/** What a stat says the path is, when it is neither a regular file nor a folder (nor a link). */
export function specialKindOf(stat: Pick<Stats, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice' | 'isFile' | 'isDirectory' | 'isSymbolicLink'>): SpecialKind | undefined {
  if (stat.isFile() || stat.isDirectory() || stat.isSymbolicLink()) return undefined;
  if (stat.isFIFO()) return 'FIFO';
  if (stat.isSocket()) return 'socket';
  if (stat.isCharacterDevice()) return 'character device';
  if (stat.isBlockDevice()) return 'block device';
  return 'special file';
}

type LocalRead =
  | { kind: 'read'; bytes: Uint8Array }
  /** More than maxBytes were there; `bytesSeen` is how far reading went before it stopped. */
  | { kind: 'too-large'; bytesSeen: number; statBytes: number }
  | { kind: 'special'; special: SpecialKind }
  /** With noFollow, the last component was a symlink (swapped in after the walk looked). */
  | { kind: 'link' };

interface LocalReadOptions {
  maxBytes: number;
  /** Refuse a symlink as the last path component (the walk already decided about links). */
  noFollow?: boolean;
}

/** Reads below this are grown in steps; one read call never asks for more than this. */
const CHUNK = 4 * 1024 * 1024;

/** The open handle of a regular file and its stat, or why there is none (the handle is the caller's to close). */
type OpenedRegular = { kind: 'open'; handle: FileHandle; stat: Stats } | { kind: 'special'; special: SpecialKind } | { kind: 'link' } | { kind: 'outside'; real: string | undefined };

/**
 * Opens `path` for reading and checks the open handle (never the name) is a regular file: every reader
 * of a local file for `context` (plain, compressed, …) starts here so the read-time checks live in one place.
 */
export async function openRegularFile(path: string, options: { noFollow?: boolean; within?: readonly string[] }): Promise<OpenedRegular> {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever. Absent on Windows.
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (options.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
  let handle;
  try {
    handle = await open(path, flags);
  } catch (error) {
    if (options.noFollow && (error as NodeJS.ErrnoException).code === 'ELOOP') return { kind: 'link' };
    throw error;
  }
  try {
    const stat = await handle.stat();
    const special = specialKindOf(stat) ?? (stat.isFile() ? undefined : 'special file');
    // `within`: the open file itself (its descriptor, not its name) must lie inside one of these folders.
    const real = !special && options.within ? realPathOfDescriptor(handle.fd, path) : undefined;
    const outside = !special && options.within !== undefined && (!real || !options.within.some((root) => isWithin(real, root)));
    if (!special && !outside) return { kind: 'open', handle, stat };
    await handle.close();
    return special ? { kind: 'special', special } : { kind: 'outside', real };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

type Opened = { kind: 'open'; handle: FileHandle; statBytes: number } | Exclude<LocalRead, { kind: 'read' | 'too-large' }> | { kind: 'too-large'; bytesSeen: 0; statBytes: number };

async function openRegular(path: string, options: LocalReadOptions): Promise<Opened> {
  // No `within` here: the plain reads check containment at their callers (readAtReadTime.ts).
  const opened = await openRegularFile(path, { noFollow: options.noFollow });
  if (opened.kind === 'outside') throw new Error('openRegularFile answered "outside" without `within`');
  if (opened.kind !== 'open') return opened;
  if (opened.stat.size <= options.maxBytes) return { kind: 'open', handle: opened.handle, statBytes: opened.stat.size };
  await opened.handle.close();
  return { kind: 'too-large', bytesSeen: 0, statBytes: opened.stat.size };
}

export async function readLocalFile(path: string, options: LocalReadOptions): Promise<LocalRead> {
  const opened = await openRegular(path, options);
  if (opened.kind !== 'open') return opened;
  const { handle, statBytes } = opened;
  try {
    // Sized from the stat, but never trusted: a file may be longer than it said (or say 0, like /proc).
    let buffer = Buffer.allocUnsafe(Math.min(options.maxBytes + 1, statBytes > 0 ? statBytes + 1 : 64 * 1024));
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        if (filled > options.maxBytes) return { kind: 'too-large', bytesSeen: filled, statBytes };
        const grown = Buffer.allocUnsafe(Math.min(options.maxBytes + 1, buffer.length * 2));
        buffer.copy(grown, 0, 0, filled);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, filled, Math.min(CHUNK, buffer.length - filled), null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > options.maxBytes) return { kind: 'too-large', bytesSeen: filled, statBytes };
    // A view would keep the whole buffer alive; copy when much of it is unused (a short /proc file).
    return { kind: 'read', bytes: buffer.length - filled > 4096 ? Buffer.from(buffer.subarray(0, filled)) : buffer.subarray(0, filled) };
  } finally {
    await handle.close();
  }
}

/**
 * The same checks as readLocalFile, but the bytes are handed to `onChunk` in order, through one
 * buffer of `chunkBytes` that is reused: nothing is kept, so a 2 GB file costs one chunk of memory.
 * `onChunk` must copy what it keeps. 'too-large' comes after the chunks up to the limit were handed over.
 */
export async function streamLocalFile(path: string, options: LocalReadOptions & { chunkBytes?: number }, onChunk: (bytes: Uint8Array) => void): Promise<Exclude<LocalRead, { kind: 'read' }> | { kind: 'streamed'; bytes: number }> {
  const opened = await openRegular(path, options);
  if (opened.kind !== 'open') return opened;
  const { handle, statBytes } = opened;
  try {
    const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(options.chunkBytes ?? 1024 * 1024, statBytes > 0 ? statBytes + 1 : 64 * 1024)));
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) return { kind: 'streamed', bytes: total };
      const allowed = Math.min(bytesRead, options.maxBytes - total);
      if (allowed > 0) onChunk(buffer.subarray(0, allowed));
      total += bytesRead;
      if (total > options.maxBytes) return { kind: 'too-large', bytesSeen: total, statBytes };
    }
  } finally {
    await handle.close();
  }
}
