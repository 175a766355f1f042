// The memory snapshot cache: a corrupt snapshot falls back to a cold load, says so, and is replaced; a
// snapshot of another build (prelude or stdlib zip) is refused by its key before it is loaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { version } from 'pyodide';
import { preludeKey } from '../../../../src/worker/preludeInstall';
import { stdlibIdentity } from '../../../../src/worker/stdlibIdentity';
import { buildIdentity } from '../../../../src/worker/buildIdentity';
import { snapshotKeyFor } from '../../../../src/worker/pyodideBoot';
import { repoRoot, startSession } from './replTestKit';

const key = snapshotKeyFor(
  version,
  preludeKey(stdlibIdentity(join(repoRoot, 'dist', 'pyodide', 'python_stdlib.zip'))),
  buildIdentity({ workerFile: join(repoRoot, 'dist', 'replWorker.js'), pyodideDir: join(repoRoot, 'dist', 'pyodide') + '/' }),
);

async function waitForSnapshot(file: string): Promise<void> {
  for (let i = 0; i < 100 && ((await stat(file).catch(() => undefined))?.size ?? 0) <= 4096; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  assert.ok((await stat(file)).size > 1_000_000, `a working snapshot was stored as ${file}`);
}

test('a corrupt snapshot is reported, loaded cold instead, and replaced by a working one', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rlm-snapshot-'));
  const file = join(dir, `pyodide-${key}.snapshot`);
  try {
    await writeFile(file, Buffer.alloc(4096, 7));
    const first = await startSession({ snapshotCacheDir: dir });
    try {
      assert.equal(first.startup?.loadMode, 'cold-snapshot-failed');
      assert.ok(first.startup?.snapshotError, 'the failure reason is reported');
      const r = await first.execute('1 + 1');
      assert.equal(r.stdout, '2\n');
      await waitForSnapshot(file);
    } finally {
      await first.close();
    }
    const second = await startSession({ snapshotCacheDir: dir });
    try {
      assert.equal(second.startup?.loadMode, 'snapshot');
      const r = await second.execute('import re; re.sub("a", "b", "banana")');
      assert.equal(r.stdout, "'bbnbnb'\n");
      // A module the snapshot had not loaded is read from the zip at the offsets the snapshot knows.
      const later = await second.execute('import email.utils, urllib.parse; print(urllib.parse.quote("a b"))');
      assert.equal(later.error, undefined, later.error?.traceback);
      assert.equal(later.stdout, 'a%20b\n');
    } finally {
      await second.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test("a snapshot of another build is refused before loading; this build's own is written beside it and used next", async () => {
  const source = await mkdtemp(join(tmpdir(), 'rlm-snapshot-src-'));
  const dir = await mkdtemp(join(tmpdir(), 'rlm-snapshot-'));
  try {
    const seed = await startSession({ snapshotCacheDir: source });
    await seed.close();
    await waitForSnapshot(join(source, `pyodide-${key}.snapshot`));
    // Real snapshot bytes under the key another build (another stdlib zip) would have used.
    const stale = join(dir, `pyodide-${version}+0123456789abcdef.snapshot`);
    await copyFile(join(source, `pyodide-${key}.snapshot`), stale);
    const session = await startSession({ snapshotCacheDir: dir });
    try {
      assert.equal(session.startup?.loadMode, 'cold-snapshot-failed');
      assert.match(session.startup?.snapshotError ?? '', /0123456789abcdef.*needs/);
      const r = await session.execute('import urllib.parse; print(urllib.parse.quote("a b"))');
      assert.equal(r.stdout, 'a%20b\n', r.error?.traceback);
      await waitForSnapshot(join(dir, `pyodide-${key}.snapshot`));
      // The other build's snapshot stays for that build (an extension and a CLI of another version
      // share the cache); the index tells each build which one is its own.
      assert.ok((await readdir(dir)).includes(`pyodide-${version}+0123456789abcdef.snapshot`), "the other build's snapshot is kept");
    } finally {
      await session.close();
    }
    const next = await startSession({ snapshotCacheDir: dir });
    try {
      assert.equal(next.startup?.loadMode, 'snapshot', "the next start is offered this build's own snapshot, not the other one");
    } finally {
      await next.close();
    }
  } finally {
    await rm(source, { recursive: true, force: true });
    await rm(dir, { recursive: true, force: true });
  }
});
