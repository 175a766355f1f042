import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CoverageTracker } from '../../../../src/core/citations/coverage';

const file = (path: string, text: string) => ({ path, read: async () => new TextEncoder().encode(text) });

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
