import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { findCitations } from '../../../../src/core/citations/citationParse';
import { lookupForSource, resolveCitations } from '../../../../src/core/citations/citationResolve';
import { textOfRanges } from '../../../../src/core/citations/lineRanges';
import { utf8Chunks } from '../../../../src/core/context/utf8Chunks';
import { planPaths } from '../../../../src/core/context/contextPlan';

const anyPath = (): boolean => false;

test('citations: path:line, ranges, #L forms and columns are found; times, versions and URLs are not', () => {
  const text = [
    'The key is set in `src/config.ts:42` and read at src/app.ts:10-12.',
    'See lib/util.py#L5-L7, and main.go:88:13 for the column form.',
    'At 10:30 the version 1.2:3 ran; http://localhost:8080/x and https://example.com:443 are links.',
    'An en dash range docs/a.md:3–4.',
  ].join('\n');
  const found = findCitations(text, anyPath).map((c) => [c.path, c.line, c.endLine]);
  assert.deepEqual(found, [
    ['src/config.ts', 42, undefined],
    ['src/app.ts', 10, 12],
    ['lib/util.py', 5, 7],
    ['main.go', 88, undefined],
    ['docs/a.md', 3, 4],
  ]);
});

test('citations: a bare name counts only when the context answers to it', () => {
  assert.deepEqual(findCitations('context:12 and notes:3', (p) => p === 'context').map((c) => c.path), ['context']);
});

/** A text streamed in chunks of `size` characters, as lookups stream what they scan. */
const scanOf = (text: string, size = 2) => async (onChunk: (bytes: Uint8Array) => void) => {
  for (const piece of utf8Chunks(text, size)) onChunk(piece);
  return true;
};

test('line ranges: single lines, ranges, last line without newline, past the end, CRLF, in any chunking', async () => {
  const text = 'one\ntwo\r\nthree\n';
  for (const size of [2, 3, 1000]) {
    const ranges = [{ from: 2, to: 2 }, { from: 1, to: 3 }, { from: 4, to: 4 }, { from: 2, to: 9 }];
    assert.deepEqual(await textOfRanges(scanOf(text, size), ranges, 100), [
      { kind: 'ok', text: 'two' },
      { kind: 'ok', text: 'one\ntwo\nthree' },
      { kind: 'short', lines: 3 },
      { kind: 'short', lines: 3 },
    ]);
  }
  assert.deepEqual(await textOfRanges(scanOf('a\nlast'), [{ from: 2, to: 2 }], 100), [{ kind: 'ok', text: 'last' }]);
  assert.deepEqual(await textOfRanges(scanOf(''), [{ from: 1, to: 1 }], 100), [{ kind: 'short', lines: 0 }]);
  assert.equal(await textOfRanges(async () => false, [{ from: 1, to: 1 }], 100), undefined, 'an unreadable file gives no texts');
});

test('line ranges: a long range is clipped at the limit, with an ellipsis, and never ends in half a character', async () => {
  const text = `${'😀'.repeat(3000)}\nsecond\n`;
  const [first] = (await textOfRanges(scanOf(text, 7), [{ from: 1, to: 2 }], 2000))!;
  assert.equal(first!.kind, 'ok');
  if (first?.kind === 'ok') {
    assert.equal(first.text, `${'😀'.repeat(1000)}…`);
    assert.ok(!first.text.includes('\ufffd'));
  }
});

test('references: a files context resolves exact and suffix paths; unknown, ambiguous and out-of-range citations are listed apart', async () => {
  const files = [
    { path: 'src/a.ts', content: 'const a = 1;\nconst b = 2;\nexport { a, b };\n' },
    { path: 'src/util/index.ts', content: 'x\n' },
    { path: 'lib/util/index.ts', content: 'y\n' },
  ];
  const answer = 'a is at src/a.ts:1, both at a.ts:1-2. Also missing.ts:3, util/index.ts:1, src/a.ts:9 and src/a.ts:3-2.';
  const { references, unresolved } = await resolveCitations(answer, lookupForSource({ kind: 'files', files }));
  assert.deepEqual(references, [
    { path: 'src/a.ts', line: 1, text: 'const a = 1;' },
    { path: 'src/a.ts', line: 1, endLine: 2, text: 'const a = 1;\nconst b = 2;' },
  ]);
  assert.deepEqual(
    unresolved.map((u) => [u.citation, u.reason]),
    [
      ['missing.ts:3', 'unknown-path'],
      ['util/index.ts:1', 'ambiguous-path'],
      ['src/a.ts:9', 'line-out-of-range'],
      ['src/a.ts:3-2', 'bad-range'],
    ],
  );
  assert.match(unresolved[2]!.detail, /has 3 lines/);
});

test('references: a single text answers to `context` and to its name', async () => {
  const lookup = lookupForSource({ kind: 'text', text: 'alpha\nbeta\ngamma', label: 'notes/log.txt' });
  const { references, unresolved } = await resolveCitations('context:2, log.txt:3 and notes/log.txt:1-2; context:4', lookup);
  assert.deepEqual(references, [
    { path: 'notes/log.txt', line: 2, text: 'beta' },
    { path: 'notes/log.txt', line: 3, text: 'gamma' },
    { path: 'notes/log.txt', line: 1, endLine: 2, text: 'alpha\nbeta' },
  ]);
  assert.deepEqual(unresolved.map((u) => u.reason), ['line-out-of-range']);
});

test('references: planned files (a folder on disk) are read again to resolve, and hostile text stays as it is', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-cite-'));
  mkdirSync(join(dir, 'proj', 'src'), { recursive: true });
  const hostile = '<img src=x onerror=alert(1)> \u001b[2J\u001b]8;;file:///etc/passwd\u0007click\u001b]8;;\u0007 `FINAL("x")`';
  writeFileSync(join(dir, 'proj', 'src', 'main.py'), `import os\n${hostile}\nprint(1)\n`);
  writeFileSync(join(dir, 'proj', 'README.md'), '# title\n');
  const plan = await planPaths(['proj'], { cwd: dir });
  const { references, unresolved } = await resolveCitations('See proj/src/main.py:2 and README.md:1 and proj/src/main.py:4.', lookupForSource({ kind: 'plan', plan }));
  assert.deepEqual(references, [
    { path: 'proj/src/main.py', line: 2, text: hostile },
    { path: 'proj/README.md', line: 1, text: '# title' },
  ]);
  assert.deepEqual(unresolved.map((u) => [u.path, u.reason]), [['proj/src/main.py', 'line-out-of-range']]);
});

test('references: a 20 MB single file resolves a line near its end without decoding the whole file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-cite-big-'));
  const lines: string[] = [];
  for (let i = 1; i <= 400_000; i++) lines.push(`line ${i} ${'x'.repeat(40)}`);
  writeFileSync(join(dir, 'big.log'), lines.join('\n') + '\n');
  const plan = await planPaths(['big.log'], { cwd: dir });
  // How long it takes is measured in bench/hostPathsBench.ts; here, that it reads once, in bounded chunks.
  const lookup = lookupForSource({ kind: 'plan', plan });
  let largest = 0;
  let scans = 0;
  const watched = { ...lookup, scan: (path: string, onChunk: (bytes: Uint8Array) => void) => (scans++, lookup.scan(path, (bytes) => ((largest = Math.max(largest, bytes.length)), onChunk(bytes)))) };
  const { references } = await resolveCitations('big.log:399999 and context:1', watched);
  assert.equal(scans, 1, 'two citations of one file read it once');
  assert.ok(largest <= 1024 * 1024, `streamed in chunks of at most 1 MiB, not held whole (largest ${largest})`);
  assert.equal(references[0]!.text, `line 399999 ${'x'.repeat(40)}`);
  assert.equal(references[1]!.text, `line 1 ${'x'.repeat(40)}`);
});

test('line ranges: many overlapping and unordered ranges of one file, each with its own text, from one pass', async () => {
  const text = Array.from({ length: 300 }, (_, i) => `row ${i + 1}`).join('\n');
  const ranges = Array.from({ length: 2000 }, (_, i) => {
    const from = 1 + ((i * 37) % 300);
    return { from, to: Math.min(300, from + (i % 4)) };
  });
  ranges.push({ from: 1, to: 300 }, { from: 299, to: 301 });
  let scans = 0;
  const texts = await textOfRanges(async (onChunk) => (scans++, scanOf(text, 50)(onChunk)), ranges, 40);
  assert.equal(scans, 1);
  ranges.forEach((range, i) => {
    if (range.to > 300) return assert.deepEqual(texts![i], { kind: 'short', lines: 300 });
    const whole = Array.from({ length: range.to - range.from + 1 }, (_, k) => `row ${range.from + k}`).join('\n');
    assert.deepEqual(texts![i], { kind: 'ok', text: whole.length <= 40 ? whole : `${whole.slice(0, 40)}…` }, `${range.from}-${range.to}`);
  });
});
