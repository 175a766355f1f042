// Where a recorded reference may open. A `.rlm.jsonl` is hostile (a repository can ship one under
// .rlm/runs), and its references name paths: `/home/me/.ssh/id_rsa`, `../../elsewhere`, or a link in
// the folder that leads out. Clicking one must open only a file inside the folders it is looked for in
// (the workspace folders, the folder the run was asked in), as `rlm continue` re-reads a recorded
// input only inside the current folder. Checked on real paths, so a symlink out is refused as what it
// leads to; the file's own name is resolved too. No `vscode` import: unit-tested.
import { realpath as fsRealpath } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { isWithin } from '../context/pathContainment';

type ReferenceTarget =
  /** The first candidate that exists and lies inside a root: its path as found, and its real path. */
  | { kind: 'inside'; abs: string; real: string }
  /** A candidate exists but its real path lies outside every root: nothing is opened. */
  | { kind: 'outside'; real: string }
  | { kind: 'missing' };

/**
 * The file a reference's `path` names under `roots` (best first): relative paths are tried under each
 * root, an absolute one as it is. `exists` says whether a path is a file to open.
 */
export async function referenceTarget(path: string, roots: readonly string[], exists: (abs: string) => Promise<boolean>, realpath: (p: string) => Promise<string> = fsRealpath): Promise<ReferenceTarget> {
  const realRoots: string[] = [];
  for (const root of roots) {
    try {
      realRoots.push(await realpath(root));
    } catch {
      // A folder that is gone holds nothing to open.
    }
  }
  const candidates = isAbsolute(path) ? [resolve(path)] : roots.map((root) => resolve(root, path));
  let outside: string | undefined;
  for (const abs of candidates) {
    if (!(await exists(abs))) continue;
    let real: string;
    try {
      real = await realpath(abs);
    } catch {
      continue;
    }
    if (realRoots.some((root) => isWithin(real, root))) return { kind: 'inside', abs, real };
    outside ??= real;
  }
  return outside !== undefined ? { kind: 'outside', real: outside } : { kind: 'missing' };
}
