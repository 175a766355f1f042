// The memory snapshot cache: a corrupt snapshot falls back to a cold load, says so, and is replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { version } from 'pyodide';
import { startSession } from './replTestKit';

test('a corrupt snapshot is reported, loaded cold instead, and replaced by a working one', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rlm-snapshot-'));
  const file = join(dir, `pyodide-${version}.snapshot`);
  try {
    await writeFile(file, Buffer.alloc(4096, 7));
    const first = await startSession({ snapshotCacheDir: dir });
    try {
      assert.equal(first.startup?.loadMode, 'cold-snapshot-failed');
      assert.ok(first.startup?.snapshotError, 'the failure reason is reported');
      const r = await first.execute('1 + 1');
      assert.equal(r.stdout, '2\n');
      for (let i = 0; i < 100 && (await stat(file).catch(() => undefined))?.size !== undefined && (await stat(file)).size <= 4096; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.ok((await stat(file)).size > 1_000_000, 'a fresh snapshot replaced the corrupt one');
    } finally {
      await first.close();
    }
    const second = await startSession({ snapshotCacheDir: dir });
    try {
      assert.equal(second.startup?.loadMode, 'snapshot');
      const r = await second.execute('import re; re.sub("a", "b", "banana")');
      assert.equal(r.stdout, "'bbnbnb'\n");
    } finally {
      await second.close();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
