// Where an open file really lies, asked of the descriptor rather than of its name: a folder on the way
// swapped for a link after the walk (or between a check and the open) cannot make a file outside the
// chosen folder look like one inside. On Linux the kernel says it (/proc/self/fd/N names the file the
// descriptor holds, whatever its name resolves to now). Elsewhere the name is resolved after the open
// and the file found there must be the very file held (same device and inode); a name that resolves
// to another file since is refused, never guessed.
import { fstatSync, lstatSync, readlinkSync, realpathSync } from 'node:fs';

/** The real path of the file held by `fd`, opened at `path`; undefined when it cannot be told. */
export function realPathOfDescriptor(fd: number, path: string, platform: NodeJS.Platform = process.platform): string | undefined {
  if (platform === 'linux') {
    try {
      const real = readlinkSync(`/proc/self/fd/${fd}`);
      // A file deleted since it was opened reads "<path> (deleted)": no longer anywhere, so not inside.
      return real.startsWith('/') && !real.endsWith(' (deleted)') ? real : undefined;
    } catch {
      // No /proc (a restricted container): the check by identity below.
    }
  }
  try {
    const real = realpathSync.native(path);
    const held = fstatSync(fd);
    const named = lstatSync(real);
    return named.isFile() && named.dev === held.dev && named.ino === held.ino ? real : undefined;
  } catch {
    return undefined;
  }
}
