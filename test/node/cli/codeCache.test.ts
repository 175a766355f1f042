// `rlm` (dist/rlm.js) starts dist/cli.js from V8's code cache: the first run keeps the compiled code in
// the user's cache folder, later runs use it, and nothing about the cache can change what runs or stop
// it from running: a damaged cache is replaced, another build's text gets its own cache (a few of other
// Nodes' are kept), an unwritable folder or RLM_NO_CODE_CACHE runs without one. Each case runs a small stand-in for cli.js beside a copy
// of the built launcher; the last checks the real bundle keeps no import(), which a cached script
// cannot run.
import { after, before, describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const repoRoot = resolve(__dirname, '..', '..', '..');
const LAUNCHER = join(repoRoot, 'dist', 'rlm.js');

// CommonJS as esbuild writes it: a lazy require of a built-in, __dirname, argv and the exit code.
const STAND_IN = `#!/usr/bin/env node
"use strict";
const later = () => Promise.resolve().then(() => require("node:zlib"));
later().then((zlib) => {
  const text = zlib.gunzipSync(zlib.gzipSync(Buffer.from(process.argv.slice(2).join(" ")))).toString();
  process.stdout.write(JSON.stringify({ text, dir: __dirname, file: __filename, moduleOk: typeof module.exports === "object" }));
  process.exitCode = 3;
});
`;

describe('rlm starts its bundle from V8\'s code cache', () => {
  let root: string;
  let dist: string;
  before(() => {
    if (!existsSync(LAUNCHER)) throw new Error('dist/rlm.js is missing: run `npm run build` before this test');
    root = mkdtempSync(join(tmpdir(), 'rlm-code-cache-'));
    dist = join(root, 'dist');
    execFileSync('mkdir', ['-p', dist]);
    copyFileSync(LAUNCHER, join(dist, 'rlm.js'));
    writeFileSync(join(dist, 'cli.js'), STAND_IN);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const cacheDir = (home: string): string => join(home, 'rlm-vscode', 'code-cache');
  /** Runs the launcher; the stand-in exits with 3, which must come through (a crash would be 139 or a signal). */
  const run = (home: string, env: Record<string, string> = {}): { out: Record<string, unknown>; stderr: string } => {
    const child = spawnSync(process.execPath, [join(dist, 'rlm.js'), 'hello', 'there'], { env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: home, ...env }, encoding: 'utf8' });
    assert.equal(child.status, 3, `exit ${child.status} (signal ${child.signal}): ${child.stderr}`);
    return { out: JSON.parse(child.stdout) as Record<string, unknown>, stderr: child.stderr };
  };
  const cacheFiles = (home: string): string[] => (existsSync(cacheDir(home)) ? readdirSync(cacheDir(home)) : []);
  const expected = (): Record<string, unknown> => ({ text: 'hello there', dir: dist, file: join(dist, 'cli.js'), moduleOk: true });

  it('runs the bundle as node would, keeps a cache on the first run, and starts from it on the next', () => {
    const home = mkdtempSync(join(root, 'home-'));
    const first = run(home);
    assert.deepEqual(first.out, expected());
    assert.equal(first.stderr, '', 'nothing said about the cache');
    const [file] = cacheFiles(home);
    assert.match(file ?? '', new RegExp(`^cli-${process.version.replace(/\./g, '\\.')}-${process.arch}-[0-9a-f]{32}\\.v8cache$`));
    assert.equal(statSync(cacheDir(home)).mode & 0o777, 0o700, 'the cache folder is the user\'s alone');
    const kept = readFileSync(join(cacheDir(home), file!));
    const second = run(home);
    assert.deepEqual(second.out, expected());
    assert.deepEqual(cacheFiles(home), [file], 'the same cache, not another');
    assert.ok(readFileSync(join(cacheDir(home), file!)).equals(kept), 'a cache V8 accepted is not written again');
  });

  it('replaces a damaged cache and still runs', () => {
    const home = mkdtempSync(join(root, 'home-'));
    run(home);
    const [file] = cacheFiles(home);
    const path = join(cacheDir(home), file!);
    const good = readFileSync(path);
    // Not a cache; cut short; whole header, garbage code (V8 alone crashed on this one); one bit flipped.
    const flipped = Buffer.from(good);
    flipped[flipped.length - 100]! ^= 1;
    for (const damaged of [Buffer.from('not a code cache at all'), good.subarray(0, good.length >> 1), Buffer.concat([good.subarray(0, 120), Buffer.alloc(good.length - 120, 0x5a)]), flipped]) {
      writeFileSync(path, damaged);
      assert.deepEqual(run(home).out, expected());
      assert.ok(!readFileSync(path).equals(damaged), `a damaged cache (${damaged.length} bytes) was left in place`);
    }
  });

  it('another build of the bundle gets its own cache, and the old one is dropped', () => {
    const home = mkdtempSync(join(root, 'home-'));
    run(home);
    const [old] = cacheFiles(home);
    // Same length, other text: V8 alone would take the old cache for it (it checks the length only).
    const otherDist = join(root, 'other-dist');
    execFileSync('mkdir', ['-p', otherDist]);
    copyFileSync(LAUNCHER, join(otherDist, 'rlm.js'));
    writeFileSync(join(otherDist, 'cli.js'), STAND_IN.replace('join(" ")', 'join("+")'));
    assert.equal(readFileSync(join(otherDist, 'cli.js')).length, Buffer.byteLength(STAND_IN), 'the two builds are the same length');
    const out = spawnSync(process.execPath, [join(otherDist, 'rlm.js'), 'a', 'b'], { env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: home }, encoding: 'utf8' });
    assert.equal(out.status, 3, out.stderr);
    assert.equal(JSON.parse(out.stdout).text, 'a+b', 'the other build ran its own code');
    assert.equal(cacheFiles(home).length, 1);
    assert.notEqual(cacheFiles(home)[0], old);
  });

  it("keeps the newest caches of other Node versions, and drops this Node's older builds and the old names", () => {
    const home = mkdtempSync(join(root, 'home-'));
    execFileSync('mkdir', ['-p', cacheDir(home)]);
    const plant = (name: string, ageSeconds: number): void => {
      const path = join(cacheDir(home), name);
      writeFileSync(path, 'an earlier cache', { mode: 0o600 });
      const when = Date.now() / 1000 - ageSeconds;
      utimesSync(path, when, when);
    };
    const hash = (n: number): string => String(n).repeat(32).slice(0, 32);
    // A user switching between Nodes: four other versions, the oldest of which goes.
    for (const [i, version] of ['v18.20.0', 'v22.11.0', 'v23.1.0', 'v21.7.3'].entries()) plant(`cli-${version}-${process.arch}-${hash(i)}.v8cache`, 10 + i * 10);
    // This Node, an earlier build; and a name from before caches were named by Node version.
    plant(`cli-${process.version}-${process.arch}-${hash(7)}.v8cache`, 5);
    plant(`cli-${hash(8)}.v8cache`, 5);
    plant('notes.txt', 5);
    run(home);
    const mine = cacheFiles(home).filter((name) => name.startsWith(`cli-${process.version}-`));
    assert.equal(mine.length, 1, `one cache of this Node: ${mine.join(', ')}`);
    assert.notEqual(mine[0], `cli-${process.version}-${process.arch}-${hash(7)}.v8cache`);
    assert.deepEqual(
      cacheFiles(home).filter((name) => !mine.includes(name)).sort(),
      [`cli-v18.20.0-${process.arch}-${hash(0)}.v8cache`, `cli-v22.11.0-${process.arch}-${hash(1)}.v8cache`, `cli-v23.1.0-${process.arch}-${hash(2)}.v8cache`, 'notes.txt'].sort(),
      'the three newest other-Node caches stay; a file not named as a cache is left alone',
    );
  });

  it('uses no cache file or folder another user could have written, and replaces such a file', () => {
    const home = mkdtempSync(join(root, 'home-'));
    run(home);
    const [file] = cacheFiles(home);
    const path = join(cacheDir(home), file!);
    // A good cache, but others may write it (so may have written its hash too): not used, which the
    // rewrite shows (an accepted cache is never written again), and replaced by the user's own file.
    chmodSync(path, 0o666);
    assert.deepEqual(run(home).out, expected());
    assert.equal(statSync(path).mode & 0o777, 0o600, 'replaced by a file of the user\'s own');
    // A folder others may write: neither read nor written.
    chmodSync(cacheDir(home), 0o777);
    rmSync(path);
    assert.deepEqual(run(home).out, expected());
    assert.deepEqual(cacheFiles(home), [], 'nothing written into a folder others may write');
  });

  it('runs without a cache when its folder cannot be written, or when RLM_NO_CODE_CACHE is set', () => {
    const blocked = join(root, 'a-file');
    writeFileSync(blocked, 'not a folder');
    const out = run(blocked);
    assert.deepEqual(out.out, expected());
    assert.equal(out.stderr, '');
    const home = mkdtempSync(join(root, 'home-'));
    assert.deepEqual(run(home, { RLM_NO_CODE_CACHE: '1' }).out, expected());
    assert.deepEqual(cacheFiles(home), []);
  });
});

test('the CLI bundle keeps no import(): rlm.js runs it as a cached script, which has no loader for one', async () => {
  const { bundleSpecs, esbuildOptions } = await import('../../../esbuild.mjs');
  const spec = bundleSpecs(join(tmpdir(), 'unused')).find((s) => s.name === 'cli')!;
  const result = await build({ ...esbuildOptions(spec, true), write: false, metafile: true, logLevel: 'silent' });
  const dynamic = Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => i.path));
  assert.deepEqual(dynamic, []);
  // The check can fail: the same build without the setting keeps the decoders' import('node:zlib').
  const plain = await build({ ...esbuildOptions(spec, true), supported: undefined, write: false, metafile: true, logLevel: 'silent' });
  assert.ok(Object.values(plain.metafile.outputs).some((o) => o.imports.some((i) => i.kind === 'dynamic-import' && i.path === 'node:zlib')));
});
