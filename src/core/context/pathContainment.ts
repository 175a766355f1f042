// Whether a file reached under a chosen folder really lies in it. A search that follows symlinks (VS
// Code's findFiles does, by default) lists files through links; the file's real path tells a link
// leading out of the folder (never read) from one that stays inside (the file is read at its own path).
import { realpath } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { SkipReason } from './contextTypes';

export function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith(sep) ? folder : folder + sep);
}

interface ReachedVerdict {
  reason: SkipReason;
  detail: string;
}

/**
 * `path` was found under `folder` (as written; `folderReal` is the folder's real path). Undefined when
 * no link lies on the way; otherwise why the file is not read there.
 */
export async function judgeReachedPath(path: string, folder: string, folderReal: string, resolve: (p: string) => Promise<string> = realpath): Promise<ReachedVerdict | undefined> {
  let real: string;
  try {
    real = await resolve(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { reason: 'link-loop', detail: 'a chain of links that never ends' };
    return { reason: 'unreadable', detail: code === 'ENOENT' ? 'a link to nothing' : `not resolved (${code ?? 'error'})` };
  }
  if (!isWithin(real, folderReal)) return { reason: 'link-outside', detail: `link to ${real}, outside the folder` };
  const direct = join(folderReal, relative(folder, path));
  if (real !== direct) return { reason: 'link', detail: `reached through a link; read at ${relative(folderReal, real).split(sep).join('/')}` };
  return undefined;
}
