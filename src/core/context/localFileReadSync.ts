// The same careful read as localFileRead.ts (non-blocking open, the open handle checked, reading stopped
// at the limit), synchronous and into a caller's reused buffer. Reading a folder of small files this way
// costs a few system calls per file instead of four trips through the thread pool, which made a 20,000-
// file folder several times slower to read than a plain Python walk. Callers read in time slices
// (timeSlicer.ts), so the event loop still turns every few milliseconds.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { realPathOfDescriptor } from './descriptorPath';
import { specialKindOf } from './localFileRead';
import { isWithin } from './pathContainment';
import type { SpecialKind } from './localFileRead';

export type LocalReadInto =
  | { kind: 'read'; length: number }
  | { kind: 'too-large'; bytesSeen: number; statBytes: number }
  | { kind: 'special'; special: SpecialKind }
  | { kind: 'link' }
  /** With `within`, the open file's real path lies outside every root (undefined: it could not be told). */
  | { kind: 'outside'; real: string | undefined };

interface ReadIntoOptions {
  noFollow?: boolean;
  head?: boolean;
  plannedBytes?: number;
  /**
   * Real paths the file must lie in, checked on the open descriptor (descriptorPath.ts), so a folder on
   * the way swapped for a link cannot lead the read outside. Implies the stat of the open handle.
   */
  within?: readonly string[];
}

/**
 * Reads the file into `into` (at most into.length - 1 bytes are accepted: one more means too large).
 * With `head`, reads only as much as fits, whatever the file's size: its first bytes.
 * With `plannedBytes` (a walk's lstat found a regular file of that size), the open handle is not stat'ed
 * again when the read gives that size: O_NOFOLLOW refuses a link swapped in since, O_NONBLOCK keeps a
 * FIFO from blocking (it reads as nothing, which differs from the planned size, so the handle is then
 * stat'ed and the FIFO refused), and the bounded read caps anything else. That is one system call fewer
 * per file of a folder. An empty planned file swapped for a FIFO still reads as empty here: callers that
 * serve a cell's reads pass `within`, which always stats the handle.
 */
export function readLocalFileInto(path: string, into: Uint8Array, options: ReadIntoOptions = {}): LocalReadInto {
  const maxBytes = into.length - 1;
  const flags = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (options.noFollow ? (constants.O_NOFOLLOW ?? 0) : 0);
  let fd: number;
  try {
    fd = openSync(path, flags);
  } catch (error) {
    if (options.noFollow && (error as NodeJS.ErrnoException).code === 'ELOOP') return { kind: 'link' };
    throw error;
  }
  try {
    let size: number;
    if (options.plannedBytes !== undefined && !options.within) {
      size = options.plannedBytes;
    } else {
      const refused = checkHandle(fd, path, options);
      if (typeof refused !== 'number') return refused;
      if (refused > maxBytes && !options.head) return { kind: 'too-large', bytesSeen: 0, statBytes: refused };
      size = refused;
    }
    let filled = 0;
    for (;;) {
      const want = into.length - filled;
      const n = readSync(fd, into, filled, want, null);
      filled += n;
      if (filled === into.length) {
        if (options.head) break;
        return { kind: 'too-large', bytesSeen: filled, statBytes: size };
      }
      // A regular file with a size gives a short read only at its end, which saves the read that would
      // return 0. Files that report size 0 (/proc) read on until the 0.
      if (n === 0 || (size > 0 && n < want)) break;
    }
    // Without the stat, a read that does not give the planned size is looked at after all: a FIFO
    // swapped in reads as nothing, and must be refused, not served as an empty file.
    if (options.plannedBytes !== undefined && !options.within && filled !== options.plannedBytes) {
      const refused = checkHandle(fd, path, {});
      if (typeof refused !== 'number') return refused;
    }
    return { kind: 'read', length: filled };
  } finally {
    closeSync(fd);
  }
}

/** The open handle's size when it is a regular file (inside `within`, when given), else why not. */
function checkHandle(fd: number, path: string, options: Pick<ReadIntoOptions, 'within'>): number | Extract<LocalReadInto, { kind: 'special' | 'outside' }> {
  const stat = fstatSync(fd);
  const special = specialKindOf(stat) ?? (stat.isFile() ? undefined : 'special file');
  if (special) return { kind: 'special', special };
  if (options.within) {
    const real = realPathOfDescriptor(fd, path);
    if (!real || !options.within.some((root) => isWithin(real, root))) return { kind: 'outside', real };
  }
  return stat.size;
}
