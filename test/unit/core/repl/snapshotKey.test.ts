// The Pyodide snapshot cache is per user, so two checkouts or two versions of the extension share it.
// A snapshot's key must name the exact build that can use it: two builds that differ only in the
// worker bundle get different keys, so the worker (which refuses a snapshot whose file name carries
// another key) never starts from the other's snapshot. Builds used side by side keep a snapshot each.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIdentity } from '../../../../src/worker/buildIdentity';
import { snapshotKeyFor } from '../../../../src/worker/pyodideBoot';
import { distStamp, SnapshotCache } from '../../../../src/core/repl/snapshotCache';

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

test('builds used side by side keep their own snapshots, and each is offered its own first', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'rlm-snapshot-key-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const cache = new SnapshotCache(join(root, 'cache'), 3);
  const keyA = snapshotKeyFor('0.28.0', 'sources', 'aaaaaaaaaaaaaaaa');
  const keyB = snapshotKeyFor('0.28.0', 'sources', 'bbbbbbbbbbbbbbbb');
  const buildA = distStamp(copyBuild(join(root, 'checkout-a')).pyodideDir.replace(/\/pyodide$/, ''));
  const buildB = distStamp(copyBuild(join(root, 'checkout-b')).pyodideDir.replace(/\/pyodide$/, ''));
  assert.notEqual(buildA, buildB, 'two folders are two builds for the index');
  // A, then B, then A again: when the cache held one snapshot, each store removed the other's.
  const pathA = await cache.store(keyA, new Uint8Array([1]), buildA);
  const pathB = await cache.store(keyB, new Uint8Array([2]), buildB);
  assert.ok(existsSync(pathA) && existsSync(pathB), 'storing B kept A');
  assert.equal(await cache.find(undefined, buildA), pathA, 'A is offered its own, not the most recent (B)');
  assert.equal(await cache.find(undefined, buildB), pathB);
  assert.equal(await cache.find(undefined, 'unknown-build'), pathB, 'an unknown build is offered the most recent');
  assert.equal(await cache.find(), pathB);
});

test('the cache keeps only the most recently stored snapshots, and forgets the builds of removed ones', async (t) => {
  const root = mkdtempSync(join(tmpdir(), 'rlm-snapshot-key-'));
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const dir = join(root, 'cache');
  const cache = new SnapshotCache(dir, 2);
  const keys = ['1111111111111111', '2222222222222222', '3333333333333333'].map((b) => snapshotKeyFor('0.28.0', 'sources', b));
  const paths: string[] = [];
  for (const [i, key] of keys.entries()) {
    paths.push(await cache.store(key, new Uint8Array([i]), `build-${i}`));
    // Modification times of files written in one millisecond can tie; age them apart explicitly.
    utimesSync(paths[i]!, new Date(1000 * (i + 1)), new Date(1000 * (i + 1)));
  }
  assert.equal(existsSync(paths[0]!), false, 'the oldest went');
  assert.ok(existsSync(paths[1]!) && existsSync(paths[2]!));
  assert.deepEqual(Object.keys(JSON.parse(readFileSync(join(dir, 'builds.json'), 'utf8')) as object).sort(), ['build-1', 'build-2']);
  assert.equal(await cache.find(undefined, 'build-0'), paths[2], 'a build whose snapshot went is offered the most recent');
  // A damaged index only costs the offer: the most recent is offered.
  writeFileSync(join(dir, 'builds.json'), '{not json');
  assert.equal(await cache.find(undefined, 'build-1'), paths[2]);
});
