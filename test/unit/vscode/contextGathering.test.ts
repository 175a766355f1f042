import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GatherBudget } from '../../../src/vscode/context/gatherBudget';
import { combineGlobs, enabledPatterns, expandBraces } from '../../../src/vscode/context/globPatterns';
import { emptyTargetMessage, summarizeTarget } from '../../../src/vscode/context/targetSummary';

test('brace expansion handles nested groups so findFiles gets one flat group', () => {
  assert.deepEqual(expandBraces('**/*.{ts,js}'), ['**/*.ts', '**/*.js']);
  assert.deepEqual(expandBraces('{a,b{c,d}}/x'), ['a/x', 'bc/x', 'bd/x']);
  assert.deepEqual(expandBraces('odd{'), ['odd{']);
  assert.equal(combineGlobs(['**/node_modules', '**/*.{png,jpg}']), '{**/node_modules,**/*.png,**/*.jpg}');
  assert.equal(combineGlobs(['dist/**']), 'dist/**');
  assert.equal(combineGlobs([]), undefined);
});

test('only enabled exclude entries count; conditional ones are skipped', () => {
  assert.deepEqual(enabledPatterns({ '**/.git': true, '**/tmp': false, '**/*.js': { when: '$(basename).ts' } }), ['**/.git']);
  assert.deepEqual(enabledPatterns(undefined), []);
});

test('the budget skips binaries, over-size files and what exceeds the total, with reasons', () => {
  const b = new GatherBudget({ maxFileBytes: 100, contextLimitBytes: 150 });
  assert.equal(b.admit('img/logo.png', 10), false);
  assert.equal(b.admit('big.txt', 101), false);
  assert.equal(b.admit('a.txt', 80), true);
  assert.equal(b.add('a.txt', new TextEncoder().encode('x'.repeat(80))), true);
  assert.equal(b.admit('b.txt', 80), false, 'would pass the total limit');
  assert.equal(b.admit('c.dat', 5), true);
  assert.equal(b.add('c.dat', new Uint8Array([1, 0, 2])), false, 'NUL bytes mean binary');
  assert.equal(b.add('d.ts', 'ünïcode'), true);
  const { files, target } = b.result('workspace', ['ws']);
  assert.deepEqual(files.map((f) => f.path), ['a.txt', 'd.ts']);
  assert.equal(target.totalBytes, 80 + Buffer.byteLength('ünïcode'));
  assert.deepEqual(b.skipCountsByReason(), { binary: 2, 'too-large': 1, limit: 1 });
  assert.deepEqual(target.skipped.map((s) => `${s.path}:${s.reason}`), ['img/logo.png:binary', 'big.txt:too-large', 'b.txt:limit', 'c.dat:binary']);
});

test('the confirmation says what is bound and what was skipped and why', () => {
  const s = summarizeTarget(
    { kind: 'workspace', paths: ['app'], totalBytes: 2048, fileCount: 12, skipped: [{ path: 'a.png', reason: 'binary' }, { path: 'huge.log', reason: 'too-large' }] },
    { binary: 3, 'too-large': 1 },
    40,
  );
  assert.equal(s.headline, 'Ask about 12 files (2.0 KB) in app?');
  assert.match(s.details[0] ?? '', /Skipped 3 binary: a\.png, and 2 more\./);
  assert.match(s.details[1] ?? '', /per-file size limit \(rlm\.maxFileSizeKb\): huge\.log\./);
  assert.match(s.details[2] ?? '', /40 files are ignored by \.gitignore/);
  assert.match(emptyTargetMessage('src/', { binary: 4 }), /every file was skipped \(4 binary\)/);
  assert.match(emptyTargetMessage('src/', {}), /No files were found in src\//);
});
