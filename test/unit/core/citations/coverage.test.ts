import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CoverageTracker } from '../../../../src/core/citations/coverage';

import type { CoverageFile } from '../../../../src/core/citations/coverage';
import { utf8Chunks } from '../../../../src/core/context/utf8Chunks';

/** A file streamed in chunks of `size` characters (2 by default: every line crosses a chunk boundary). */
const file = (path: string, text: string, size = 2): CoverageFile => ({
  path,
  scan: async (onChunk) => {
    for (const piece of utf8Chunks(text, size)) onChunk(piece);
    return true;
  },
});

test('coverage: lines printed whole, inside a printed list, with a line-number prefix, or sent to a sub-call count as seen; cited lines are marked', async () => {
  const a = Array.from({ length: 100 }, (_, i) => `alpha line number ${i + 1}`).join('\n');
  const b = Array.from({ length: 100 }, (_, i) => `beta entry ${i + 1} of the second file`).join('\n');
  const tracker = new CoverageTracker();
  tracker.noteCellOutput('alpha line number 5\nsome summary the model printed');
  tracker.noteCellOutput(String(['alpha line number 6', 'alpha line number 7'].map((s) => `'${s}'`)));
  tracker.noteCellOutput('42: alpha line number 42');
  tracker.noteSubCallPrompt('Summarise:\nbeta entry 90 of the second file\nbeta entry 91 of the second file');
  const coverage = await tracker.compute([file('a.txt', a), file('b.txt', `${b}\n`)], [{ path: 'b.txt', line: 150, text: '' }, { path: 'b.txt', line: 10, endLine: 11, text: '' }]);
  assert.equal(coverage.totalLines, 200);
  assert.deepEqual(coverage.files, [{ path: 'a.txt', firstLine: 1, lines: 100 }, { path: 'b.txt', firstLine: 101, lines: 100 }]);
  assert.equal(coverage.seenLines, 6);
  assert.equal(coverage.citedLines, 2);
  assert.equal(coverage.buckets.length, 120);
  const sum = (key: 'cell' | 'subcall' | 'cited' | 'lines') => coverage.buckets.reduce((n, x) => n + x[key], 0);
  assert.equal(sum('cell'), 4);
  assert.equal(sum('subcall'), 2);
  assert.equal(sum('cited'), 2);
  assert.equal(sum('lines'), 200);
  // The seen lines sit where they are in the input: a's 5th line in the first buckets, b's 90th near the end.
  assert.ok(coverage.buckets.slice(0, 4).some((x) => x.cell > 0));
  assert.ok(coverage.buckets.slice(-14).some((x) => x.subcall > 0));
});

test('coverage: short lines and text the run never showed are not counted as seen', async () => {
  const tracker = new CoverageTracker();
  tracker.noteCellOutput('}\nok\n');
  const coverage = await tracker.compute([file('c.py', 'def f():\n    return 1\n}\nok\n')], []);
  assert.equal(coverage.seenLines, 0);
  assert.equal(coverage.totalLines, 4);
});

test('coverage: the record is the same however the files are chunked, whichever file finishes first, and an unreadable file is left out', async () => {
  const texts = Array.from({ length: 40 }, (_, f) => Array.from({ length: 30 }, (_, i) => `file ${f} holds line ${i + 1}`).join('\n'));
  const tracker = new CoverageTracker();
  tracker.noteCellOutput('file 3 holds line 7\nfile 39 holds line 30');
  tracker.noteSubCallPrompt('file 20 holds line 1');
  const whole = await tracker.compute(texts.map((text, f) => file(`f${f}.txt`, text, 1 << 16)), [{ path: 'f5.txt', line: 2, text: '' }]);
  // Later files answer first (a folder read a few files at a time must still keep its order).
  const slow = texts.map((text, f): CoverageFile => ({ path: `f${f}.txt`, scan: async (onChunk) => {
    await new Promise((r) => setTimeout(r, (40 - f) % 7));
    for (const piece of utf8Chunks(text, 3)) onChunk(piece);
    return true;
  } }));
  const chunked = await tracker.compute(slow, [{ path: 'f5.txt', line: 2, text: '' }]);
  assert.deepEqual(chunked, whole);
  assert.equal(whole.seenLines, 3);
  assert.equal(whole.citedLines, 1);
  assert.deepEqual(whole.files.slice(0, 2), [{ path: 'f0.txt', firstLine: 1, lines: 30 }, { path: 'f1.txt', firstLine: 31, lines: 30 }]);
  const missing = await tracker.compute([file('a.txt', 'alpha line here'), { path: 'gone.txt', scan: async () => false }, file('b.txt', 'file 3 holds line 7')], []);
  assert.deepEqual(missing.files, [{ path: 'a.txt', firstLine: 1, lines: 1 }, { path: 'b.txt', firstLine: 2, lines: 1 }]);
  assert.equal(missing.seenLines, 1);
});

test('coverage: a line seen with the same length but other text is not counted; a cut overlong line counts as unseen', async () => {
  const tracker = new CoverageTracker();
  tracker.noteCellOutput('abcdefgh12\n');
  const coverage = await tracker.compute([file('a.txt', `abcdefgh13\nabcdefgh12\n${'z'.repeat(3 * 1024 * 1024)}\n`, 1 << 16)], []);
  assert.equal(coverage.totalLines, 3);
  assert.equal(coverage.seenLines, 1);
  assert.equal(coverage.buckets.reduce((n, b) => n + b.lines, 0), 3);
});

test('coverage: cited lines from overlapping, nested and unordered references are each counted once', async () => {
  const text = Array.from({ length: 50 }, (_, i) => `gamma entry number ${i + 1}`).join('\n');
  const refs = [[30, 35], [10, 12], [11, 20], [14, 15], [40, 40], [33, 31 + 5]].map(([line, endLine]) => ({ path: 'g.txt', line: line!, endLine: endLine!, text: '' }));
  const coverage = await new CoverageTracker().compute([file('g.txt', text, 7)], refs);
  // 10-20 (11 lines), 30-36 (7 lines), 40 (1 line).
  assert.equal(coverage.citedLines, 19);
});

test('coverage: a small file cut by characters into 20 sub-call chunks is seen whole, and short lines are not counted', async () => {
  // 30 lines, a third of them blank or braces (under 8 characters: not countable).
  const lines = Array.from({ length: 30 }, (_, i) => (i % 3 === 2 ? (i % 2 ? '}' : '') : `    const value${i} = compute(${i}, "x");`));
  const text = lines.join('\n');
  const tracker = new CoverageTracker();
  const size = Math.ceil(text.length / 20);
  for (let i = 0; i < 20; i++) tracker.noteSubCallPrompt(`Summarise this part of the file:\n${text.slice(i * size, (i + 1) * size)}`);
  const coverage = await tracker.compute([file('small.ts', text)], []);
  const countable = coverage.buckets.reduce((n, b) => n + b.lines, 0);
  assert.equal(coverage.totalLines, 30);
  assert.equal(countable, 20, 'blank lines and braces are not counted');
  assert.equal(coverage.seenLines, 20, 'every countable line went to a sub-call, cut or whole');
  assert.equal(coverage.buckets.reduce((n, b) => n + b.subcall, 0), 20);
});

test('coverage: halves that do not join into a line of the input do not make it seen', async () => {
  const tracker = new CoverageTracker();
  tracker.noteSubCallPrompt('alpha line\nnumber');
  tracker.noteCellOutput('unrelated output');
  const coverage = await tracker.compute([file('a.txt', 'alpha line number 7\nbeta line number 8')], []);
  assert.equal(coverage.seenLines, 0);
});
