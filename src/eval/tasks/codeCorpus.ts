// A real source tree for the code suite, when `rlm eval --code-root <dir>` names one: text files under
// the root, listed in sorted order, from which a seeded contiguous run of files fills the length. (By
// default the suite asks about a generated tree instead: syntheticSourceTree.ts.)
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { ContextFile } from '../../core/context/contextTypes';
import type { SeededRandom } from './seededRandom';

const TEXT_EXTENSIONS = /\.(js|mjs|cjs|ts|mts|cts|json|md)$/;
/** Bigger files are skipped: minified bundles would dominate every selection. */
const MAX_FILE_BYTES = 256 * 1024;

export class CodeCorpusError extends Error {
  constructor(
    readonly root: string,
    message: string,
  ) {
    super(message);
    this.name = 'CodeCorpusError';
  }
}

interface CorpusEntry {
  path: string;
  bytes: number;
}

const listings = new Map<string, CorpusEntry[]>();

/** Every eligible file under root, sorted by POSIX path. Cached per root for the life of the process. */
function listCorpus(root: string): CorpusEntry[] {
  const cached = listings.get(root);
  if (cached) return cached;
  const out: CorpusEntry[] = [];
  const walk = (dir: string): void => {
    let names: string[];
    try {
      names = readdirSync(dir).sort();
    } catch (err) {
      if (dir === root) throw new CodeCorpusError(root, `cannot read the code corpus at ${root}: ${(err as Error).message}; pass --code-root <dir>`);
      return;
    }
    for (const name of names) {
      const full = join(dir, name);
      const st = statSync(full, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(full);
      else if (st.isFile() && TEXT_EXTENSIONS.test(name) && st.size > 0 && st.size <= MAX_FILE_BYTES) {
        out.push({ path: relative(root, full).split(sep).join('/'), bytes: st.size });
      }
    }
  };
  walk(root);
  out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  if (out.length === 0) throw new CodeCorpusError(root, `no source files under ${root}; pass --code-root <dir> with a source tree`);
  listings.set(root, out);
  return out;
}

/** A contiguous run (in path order, wrapping) of files totalling about `chars`, starting at a seeded place. */
export function selectFiles(root: string, chars: number, rng: SeededRandom): ContextFile[] {
  const all = listCorpus(root);
  const total = all.reduce((s, e) => s + e.bytes, 0);
  if (total < chars * 0.9) {
    throw new CodeCorpusError(root, `the code corpus at ${root} holds ${total} bytes, less than the ${chars} requested; use a shorter length or a larger --code-root`);
  }
  const start = rng.int(0, all.length - 1);
  const files: ContextFile[] = [];
  let size = 0;
  for (let i = 0; i < all.length && size < chars; i++) {
    const entry = all[(start + i) % all.length]!;
    const content = readFileSync(join(root, entry.path), 'utf8');
    files.push({ path: entry.path, content });
    size += content.length;
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
