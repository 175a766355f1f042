// Reads one local file for `context` without trusting its name or its stat: the file is opened first
// (non-blocking, so a FIFO cannot hang the open; optionally refusing a symlink at the last step), the
// open handle is checked to be a regular file (so a path swapped after a check cannot smuggle in a
// device), and reading stops at the limit instead of after it (so /dev/zero, a /proc file that
// reports size 0, or a log that grows while read cannot take memory without bound).
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { open } from 'node:fs/promises';

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

export async function readLocalFile(path: string, options: LocalReadOptions): Promise<LocalRead> {
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
    const special = specialKindOf(stat);
    if (special) return { kind: 'special', special };
    if (!stat.isFile()) return { kind: 'special', special: 'special file' };
    if (stat.size > options.maxBytes) return { kind: 'too-large', bytesSeen: 0, statBytes: stat.size };
    // Sized from the stat, but never trusted: a file may be longer than it said (or say 0, like /proc).
    let buffer = Buffer.allocUnsafe(Math.min(options.maxBytes + 1, stat.size > 0 ? stat.size + 1 : 64 * 1024));
    let filled = 0;
    for (;;) {
      if (filled === buffer.length) {
        if (filled > options.maxBytes) return { kind: 'too-large', bytesSeen: filled, statBytes: stat.size };
        const grown = Buffer.allocUnsafe(Math.min(options.maxBytes + 1, buffer.length * 2));
        buffer.copy(grown, 0, 0, filled);
        buffer = grown;
      }
      const { bytesRead } = await handle.read(buffer, filled, Math.min(CHUNK, buffer.length - filled), null);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    if (filled > options.maxBytes) return { kind: 'too-large', bytesSeen: filled, statBytes: stat.size };
    // A view would keep the whole buffer alive; copy when much of it is unused (a short /proc file).
    return { kind: 'read', bytes: buffer.length - filled > 4096 ? Buffer.from(buffer.subarray(0, filled)) : buffer.subarray(0, filled) };
  } finally {
    await handle.close();
  }
}

