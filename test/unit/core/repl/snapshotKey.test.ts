// The Pyodide snapshot cache is per user, so two checkouts or two versions of the extension share it.
// A snapshot's key must name the exact build that can use it: two builds that differ only in the
// worker bundle get different keys, so the worker (which refuses a snapshot whose file name carries
// another key) never starts from the other's snapshot.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIdentity } from '../../../../src/worker/buildIdentity';
import { snapshotKeyFor } from '../../../../src/worker/pyodideBoot';
import { SnapshotCache } from '../../../../src/core/repl/snapshotCache';

const DIST = join(__dirname, '../../../../dist');

/** A copy of the built worker bundle and Pyodide's files (the parts the key reads), in `dir`. */
function copyBuild(dir: string): { workerFile: string; pyodideDir: string } {
  const pyodideDir = join(dir, 'pyodide');
  mkdirSync(pyodideDir, { recursive: true });
  copyFileSync(join(DIST, 'replWorker.js'), join(dir, 'replWorker.js'));
  for (const name of ['pyodide.asm.mjs', 'pyodide.asm.wasm', 'pyodide.mjs', 'pyodide-lock.json']) copyFileSync(join(DIST, 'pyodide', name), join(pyodideDir, name));
  return { workerFile: join(dir, 'replWorker.js'), pyodideDir };
}

test('two builds that differ only in the worker bundle get different snapshot keys; identical builds share one', (t) => {
  const root = mkdtempSync(join(tmpdir(), 'rlm-snapshot-key-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const a = copyBuild(join(root, 'checkout-a'));
  const b = copyBuild(join(root, 'checkout-b'));
  // The control: the same bytes in another folder are the same build.
  assert.equal(buildIdentity(a), buildIdentity(b));
  appendFileSync(b.workerFile, '\n// another checkout\n');
  const keyA = snapshotKeyFor('0.28.0', 'sources', buildIdentity(a));
  const keyB = snapshotKeyFor('0.28.0', 'sources', buildIdentity(b));
  assert.notEqual(keyA, keyB);
  // Both stay valid cache file names, and a shared cache offers checkout B nothing under its key.
  const cache = new SnapshotCache(join(root, 'cache'));
  assert.doesNotThrow(() => cache.pathFor(keyA));
  assert.doesNotThrow(() => cache.pathFor(keyB));
});

test("a change in Pyodide's files (same version) changes the key too; a missing file is named, not skipped", (t) => {
  const root = mkdtempSync(join(tmpdir(), 'rlm-snapshot-key-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const a = copyBuild(join(root, 'a'));
  const before = buildIdentity(a);
  appendFileSync(join(a.pyodideDir, 'pyodide.asm.wasm'), Buffer.from([0]));
  const grown = buildIdentity(a);
  assert.notEqual(grown, before);
  writeFileSync(join(a.pyodideDir, 'pyodide.asm.mjs'), 'export {}');
  assert.notEqual(buildIdentity(a), grown);
  rmSync(join(a.pyodideDir, 'pyodide-lock.json'));
  assert.match(buildIdentity(a), /^[0-9a-f]{16}$/);
});

test('a shared cache hands one build the snapshot stored under its own key only', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'rlm-snapshot-key-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const cache = new SnapshotCache(join(root, 'cache'));
  const keyA = snapshotKeyFor('0.28.0', 'sources', 'aaaaaaaaaaaaaaaa');
  const keyB = snapshotKeyFor('0.28.0', 'sources', 'bbbbbbbbbbbbbbbb');
  const stored = await cache.store(keyA, new Uint8Array([1, 2, 3]));
  assert.equal(await cache.find(keyA), stored);
  assert.equal(await cache.find(keyB), undefined, "build B is not offered build A's snapshot");
});
