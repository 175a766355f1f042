// What a read found when the file was no longer the regular file the walk saw: a device or FIFO, a
// symlink swapped in at the last step, or a file that now lies outside what the user chose. Every
// reader of a local file (plain, compressed, notebook, PDF) meets the same three cases, so they are said
// here once: as the error of a file named alone, and as the skipped entry of a file in a folder.
import { SpecialFileError } from './contextErrors';
import type { SpecialKind } from './localFileRead';
import type { TargetDescription } from './contextTypes';

type Skipped = TargetDescription['skipped'][number];

export type SwappedRead = { kind: 'special'; special: SpecialKind } | { kind: 'link' } | { kind: 'outside'; real?: string | undefined };

/** The error a file named alone ends with when it was swapped (its read is refused). */
export function swappedRefusal(shown: string, read: SwappedRead): SpecialFileError {
  switch (read.kind) {
    case 'special':
      return new SpecialFileError(shown, read.special);
    case 'link':
      return new SpecialFileError(shown, 'symbolic link swapped in while read');
    case 'outside':
      return new SpecialFileError(shown, 'file that moved outside what was chosen while read');
  }
}

/** The skipped entry of a file in a folder that was swapped since the walk looked at it. */
export function swappedSkip(path: string, read: SwappedRead): { kind: 'skipped'; skipped: Skipped } {
  switch (read.kind) {
    case 'special':
      return { kind: 'skipped', skipped: { path, reason: 'special', detail: `became a ${read.special} while read` } };
    case 'link':
      return { kind: 'skipped', skipped: { path, reason: 'link', detail: 'became a link while read' } };
    case 'outside':
      return { kind: 'skipped', skipped: { path, reason: 'link-outside', detail: read.real ? `now lies at ${read.real}, outside what was chosen` : 'was replaced or removed while read' } };
  }
}
