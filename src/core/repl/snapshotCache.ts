// The on-disk cache of Pyodide memory snapshots, one file per key (`pyodide-<key>.snapshot`, the key
// naming the exact build: the Pyodide version, a hash of the prelude and stdlib, and one of the worker
// bundle and Pyodide's files; see src/worker/pyodideBoot.ts and buildIdentity.ts). The cache is shared
// by every checkout and extension version of one user, so the key is what keeps their snapshots apart.
// The host does all writing: the REPL child may only read the file.
import { mkdir, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const PATTERN = /^pyodide-(.+)\.snapshot$/;

export class SnapshotCache {
  constructor(readonly dir: string) {}

  pathFor(key: string): string {
    if (!/^[\w.+-]+$/.test(key)) throw new Error(`unexpected snapshot key: ${key}`);
    return join(this.dir, `pyodide-${key}.snapshot`);
  }

  /**
   * The snapshot to offer the child. The host does not know the key until a child reports it, so it
   * offers whatever is cached; the worker checks the key in the name before using it.
   */
  async find(knownKey?: string): Promise<string | undefined> {
    if (knownKey) {
      const path = this.pathFor(knownKey);
      return existsSync(path) ? path : undefined;
    }
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return undefined;
    }
    const match = names.filter((n) => PATTERN.test(n)).sort().pop();
    return match ? join(this.dir, match) : undefined;
  }

  /** Writes atomically and removes snapshots under other keys. */
  async store(key: string, bytes: Uint8Array): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const path = this.pathFor(key);
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, path);
    for (const name of await readdir(this.dir)) {
      if (PATTERN.test(name) && join(this.dir, name) !== path) await rm(join(this.dir, name), { force: true });
    }
    return path;
  }

  async remove(path: string): Promise<void> {
    await rm(path, { force: true });
  }
}
