// The on-disk cache of Pyodide memory snapshots, one file per key (`pyodide-<key>.snapshot`, the key
// naming the exact build: the Pyodide version, a hash of the prelude and stdlib, and one of the worker
// bundle and Pyodide's files; see src/worker/pyodideBoot.ts and buildIdentity.ts). The cache is shared
// by every checkout and extension version of one user, so the key is what keeps their snapshots apart.
// The host does all writing: the REPL child may only read the file.
//
// Several builds in use side by side (the extension and a CLI of another version, two checkouts) each
// keep their snapshot: the cache holds the KEPT most recently stored ones. When it held one, each build's
// start removed the other's, so every start of either was a cold load (measured: a start from the
// snapshot 5-7 s against a cold one 11-14 s on this machine at load 20; the cold one also makes and
// writes a new snapshot). The host learns a build's key only from its REPL's `ready`, so an index maps
// the folder a REPL is started from (its stamp: path, and size and time of its bundle files) to the key
// its snapshot was stored under, and the first start of a process is offered its own build's snapshot.
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync, realpathSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

const PATTERN = /^pyodide-(.+)\.snapshot$/;
const INDEX = 'builds.json';
/** Snapshots kept: tens of MB each. */
const KEPT = 3;

export class SnapshotCache {
  constructor(
    readonly dir: string,
    private readonly kept = KEPT,
  ) {}

  pathFor(key: string): string {
    if (!/^[\w.+-]+$/.test(key)) throw new Error(`unexpected snapshot key: ${key}`);
    return join(this.dir, `pyodide-${key}.snapshot`);
  }

  /**
   * The snapshot to offer the child: the one under `knownKey`, else the one stored for `build`
   * (distStamp), else the most recently stored one. The worker checks the key in the name before using it.
   */
  async find(knownKey?: string, build?: string): Promise<string | undefined> {
    if (knownKey) {
      const path = this.pathFor(knownKey);
      return existsSync(path) ? path : undefined;
    }
    const indexed = build ? (await this.readIndex())[build] : undefined;
    if (indexed && PATTERN.test(`pyodide-${indexed}.snapshot`)) {
      try {
        const path = this.pathFor(indexed);
        if (existsSync(path)) return path;
      } catch {
        // a key the index should not hold: ignored, as if absent
      }
    }
    return (await this.byAge())[0];
  }

  /**
   * Writes atomically, notes it as `build`'s snapshot, and removes the oldest snapshots past the
   * kept count (and index entries whose snapshot is gone).
   */
  async store(key: string, bytes: Uint8Array, build?: string): Promise<string> {
    await mkdir(this.dir, { recursive: true });
    const path = this.pathFor(key);
    const tmp = `${path}.${process.pid}.tmp`;
    await writeFile(tmp, bytes, { mode: 0o600 });
    await rename(tmp, path);
    const kept = new Set([path, ...(await this.byAge()).filter((p) => p !== path).slice(0, this.kept - 1)]);
    for (const name of await readdir(this.dir)) {
      if (PATTERN.test(name) && !kept.has(join(this.dir, name))) await rm(join(this.dir, name), { force: true });
    }
    const index = await this.readIndex();
    if (build) index[build] = key;
    for (const [stamp, indexedKey] of Object.entries(index)) if (!kept.has(join(this.dir, `pyodide-${indexedKey}.snapshot`))) delete index[stamp];
    const indexTmp = join(this.dir, `${INDEX}.${process.pid}.tmp`);
    await writeFile(indexTmp, JSON.stringify(index), { mode: 0o600 });
    await rename(indexTmp, join(this.dir, INDEX));
    return path;
  }

  async remove(path: string): Promise<void> {
    await rm(path, { force: true });
  }

  /** Snapshot paths, most recently stored first. */
  private async byAge(): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const dated = await Promise.all(
      names
        .filter((n) => PATTERN.test(n))
        .map(async (n) => {
          const path = join(this.dir, n);
          try {
            return { path, at: (await stat(path)).mtimeMs };
          } catch {
            return undefined;
          }
        }),
    );
    return dated
      .filter((d): d is { path: string; at: number } => d !== undefined)
      .sort((a, b) => b.at - a.at || b.path.localeCompare(a.path))
      .map((d) => d.path);
  }

  /** build stamp -> key; anything unreadable or malformed is an empty index (the cache only gets slower). */
  private async readIndex(): Promise<Record<string, string>> {
    try {
      const parsed: unknown = JSON.parse(await readFile(join(this.dir, INDEX), 'utf8'));
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
      return Object.fromEntries(Object.entries(parsed).filter((e): e is [string, string] => typeof e[1] === 'string' && /^[\w.+-]+$/.test(e[1])));
    } catch {
      return {};
    }
  }
}

/**
 * Names the REPL build in `distDir` for the index, without reading it: its real path, and the size and
 * modification time of the worker bundle and Pyodide's wasm. A rebuild changes it; the worker's own
 * key check still decides whether a snapshot is used.
 */
export function distStamp(distDir: string): string {
  const hash = createHash('sha256');
  try {
    hash.update(realpathSync(distDir));
  } catch {
    hash.update(distDir);
  }
  for (const file of ['replWorker.js', join('pyodide', 'pyodide.asm.wasm')]) {
    try {
      const s = statSync(join(distDir, file));
      hash.update(`\0${file}\0${s.size}\0${s.mtimeMs}`);
    } catch {
      hash.update(`\0${file}\0missing`);
    }
  }
  return hash.digest('hex').slice(0, 16);
}
