// scripts/dependencies.mjs, the first step of `npm start` and `npm test`: node_modules is compared
// with package-lock.json on small projects made for the test, `npm ci` runs only when they differ
// (a stand-in npm records the call), and every failure is one sentence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { checkDependencies, ensureDependencies, nodeVersionProblem, SetupError } from '../../../scripts/dependencies.mjs';
import type { NpmResult } from '../../../scripts/dependencies.mjs';

const LOCK = {
  name: 'demo',
  lockfileVersion: 3,
  packages: {
    '': { name: 'demo', dependencies: { alpha: '^1.0.0' } },
    'node_modules/alpha': { version: '1.2.3' },
    'node_modules/alpha/node_modules/beta': { version: '2.0.0', dev: true },
    'node_modules/@scope/native-darwin': { version: '1.0.0', optional: true, os: ['darwin'] },
  },
};

function write(root: string, path: string, value: unknown): void {
  const file = join(root, path);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
}

function project(installed: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'rlm-deps-'));
  write(root, 'package.json', { name: 'demo', engines: { node: '>=20.0.0' } });
  write(root, 'package-lock.json', LOCK);
  mkdirSync(join(root, 'node_modules'));
  for (const [path, version] of Object.entries(installed)) write(root, `${path}/package.json`, { name: path.split('/').pop(), version });
  return root;
}

const COMPLETE = { 'node_modules/alpha': '1.2.3', 'node_modules/alpha/node_modules/beta': '2.0.0' };

test('a tree that matches the lock file is current, an absent optional platform package included', (t) => {
  const root = project(COMPLETE);
  t.after(() => rmSync(root, { recursive: true, force: true }));
  assert.deepEqual(checkDependencies(root), { state: 'current' });
});

test('no node_modules is missing; a wrong version or an absent nested package is stale, named', (t) => {
  const bare = project({});
  rmSync(join(bare, 'node_modules'), { recursive: true, force: true });
  const wrong = project({ ...COMPLETE, 'node_modules/alpha': '1.1.0' });
  const partial = project({ 'node_modules/alpha': '1.2.3' });
  t.after(() => [bare, wrong, partial].forEach((r) => rmSync(r, { recursive: true, force: true })));
  assert.equal(checkDependencies(bare).state, 'missing');
  assert.deepEqual(checkDependencies(wrong), { state: 'stale', reason: 'alpha is 1.1.0, the lock file pins 1.2.3' });
  assert.deepEqual(checkDependencies(partial), { state: 'stale', reason: 'alpha/node_modules/beta is not installed' });
});

test('a current tree runs no npm; a stale one runs npm ci once and is checked again', async (t) => {
  const current = project(COMPLETE);
  const stale = project({ 'node_modules/alpha': '1.0.0' });
  t.after(() => [current, stale].forEach((r) => rmSync(r, { recursive: true, force: true })));
  const calls: string[][] = [];
  const npm = async (args: string[], root: string): Promise<NpmResult> => {
    calls.push(args);
    for (const [path, version] of Object.entries(COMPLETE)) write(root, `${path}/package.json`, { version });
    return { code: 0 };
  };
  const quiet = (): void => {};
  assert.equal((await ensureDependencies({ root: current, npm, log: quiet })).installed, false);
  assert.deepEqual(calls, []);
  const result = await ensureDependencies({ root: stale, npm, log: quiet });
  assert.equal(result.installed, true);
  assert.equal(result.reason, 'alpha is 1.0.0, the lock file pins 1.2.3');
  assert.deepEqual(calls, [['ci', '--no-audit', '--no-fund']]);
  assert.deepEqual(checkDependencies(stale), { state: 'current' });
});

test('failures are one actionable sentence: npm failing, npm missing, an install that leaves a gap, a linked tree', async (t) => {
  const roots = [project({}), project({}), project({}), project({})];
  const [failing, absent, gap, linked] = roots as [string, string, string, string];
  const elsewhere = project({});
  t.after(() => [...roots, elsewhere].forEach((r) => rmSync(r, { recursive: true, force: true })));
  rmSync(join(linked, 'node_modules'), { recursive: true, force: true });
  symlinkSync(join(elsewhere, 'node_modules'), join(linked, 'node_modules'));
  const quiet = (): void => {};
  let npmCalls = 0;
  const cases: Array<[string, (args: string[], root: string) => Promise<NpmResult>, RegExp]> = [
    [failing, async () => ({ code: 1 }), /^npm ci failed \(exit 1\), see its output above: check the network connection/],
    [absent, async () => ({ code: null, error: new Error('spawn npm ENOENT') }), /^npm could not be started \(spawn npm ENOENT\)/],
    [gap, async () => ({ code: 0 }), /^npm ci finished but node_modules still does not match package-lock.json \(alpha is not installed\)/],
    [linked, async () => { npmCalls += 1; return { code: 0 }; }, /^node_modules is a link to another checkout/],
  ];
  for (const [root, npm, expected] of cases) {
    const error = await ensureDependencies({ root, npm, log: quiet }).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof SetupError, `expected a SetupError for ${root}`);
    assert.match(error.message, expected);
    assert.doesNotMatch(error.message, /\n/);
    assert.match(error.message, /\.$/);
  }
  assert.equal(npmCalls, 0, 'npm ci must not run through a linked node_modules');
});

test('a Node older than engines.node is refused with the version to install', () => {
  assert.equal(nodeVersionProblem('>=20.19.0', '22.1.0'), undefined);
  assert.equal(nodeVersionProblem('>=20.19.0', '20.19.0'), undefined);
  assert.match(nodeVersionProblem('>=20.19.0', '20.10.1') ?? '', /^This repository needs Node 20\.19\.0 or newer, and this is Node 20\.10\.1: install/);
  assert.match(nodeVersionProblem('>=20.19.0', '18.20.4') ?? '', /Node 18\.20\.4/);
});

// The check reads one small manifest per package, so it stays far below what npm ci would cost; how
// long it takes is measured in bench/hostPathsBench.ts ("dependency check of this checkout's node_modules").
test("this repository's own tree is checked as current", () => {
  const result = checkDependencies(resolve(__dirname, '..', '..', '..'));
  assert.equal(result.state, 'current', 'node_modules of this checkout should match its lock file');
});
