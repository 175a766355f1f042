// The one grammar for an answer's mentions of places in the input, which the views and `@rlm` share.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { findMentions } from '../../../src/shared/text/mentionGrammar';
import { splitMentions } from '../../../src/shared/text/answerMentions';

const shown = (text: string) => findMentions(text).map(({ start: _s, end: _e, ...m }) => m);

test('paths with a folder or an extension, then a line, a range, a cell or a page', () => {
  assert.deepEqual(shown('See src/a.ts:12, `lib\\b.py:3-5`, src/Makefile:7 and a.ts#L3-L9; cells analysis.ipynb#cell=4-6 and analysis.ipynb#cell=3:2; design.pdf#page=18:3.'), [
    { text: 'src/a.ts:12', path: 'src/a.ts', line: 12 },
    { text: 'lib\\b.py:3-5', path: 'lib\\b.py', line: 3, endLine: 5 },
    { text: 'src/Makefile:7', path: 'src/Makefile', line: 7 },
    { text: 'a.ts#L3-L9', path: 'a.ts', line: 3, endLine: 9 },
    { text: 'analysis.ipynb#cell=4-6', path: 'analysis.ipynb', anchor: { kind: 'cell', cell: 4, endCell: 6 } },
    { text: 'analysis.ipynb#cell=3:2', path: 'analysis.ipynb', anchor: { kind: 'cell', cell: 3, line: 2 } },
    { text: 'design.pdf#page=18:3', path: 'design.pdf', anchor: { kind: 'page', page: 18, line: 3 } },
  ]);
});

test('not a mention, or not all of it: a time, a URL, a sentence\'s full stop, a column, a zero line', () => {
  assert.deepEqual(shown('at 10:12 it failed; http://localhost:12 is up'), []);
  assert.deepEqual(shown('it is in src/a.ts.'), [{ text: 'src/a.ts', path: 'src/a.ts' }]);
  // `file:line:col`, as compilers write it: the column is not an end line.
  assert.deepEqual(shown('src/a.ts:12:5'), [{ text: 'src/a.ts:12', path: 'src/a.ts', line: 12 }]);
  assert.deepEqual(shown('src/a.ts:0'), [{ text: 'src/a.ts:0', path: 'src/a.ts' }]);
  assert.deepEqual(shown('src/a.ts:5-2'), [{ text: 'src/a.ts:5-2', path: 'src/a.ts', line: 5 }]);
});

test('a long run of path characters is read once, not tried at every position', { timeout: 20_000 }, () => {
  for (const text of ['a'.repeat(2_000_000), 'a/'.repeat(1_000_000), `\`${'a.'.repeat(1_000_000)}`, `${'b-'.repeat(500_000)} see src/a.ts:3`]) {
    const mentions = findMentions(text);
    assert.ok(mentions.length <= 2, `${mentions.length} mentions in a run of ${text.length} characters`);
  }
});

test('the views link a PDF page and a range of cells when the loop resolved them', () => {
  const refs = [
    { path: 'docs/design.pdf#page=18', line: 3 },
    { path: 'design.pdf#page=2', line: 1 },
    { path: 'analysis.ipynb', line: 40, endLine: 90, notebookCell: { cell: 4, endCell: 6 } },
  ];
  const parts = splitMentions('Budget: design.pdf#page=18:3; the figure is on design.pdf#page=2; plotted in analysis.ipynb#cell=4-6, not design.pdf#page=18:4.', refs);
  assert.deepEqual(
    parts.filter((p) => p.kind === 'mention'),
    [
      { kind: 'mention', text: 'design.pdf#page=18:3', index: 0 },
      { kind: 'mention', text: 'design.pdf#page=2', index: 1 },
      { kind: 'mention', text: 'analysis.ipynb#cell=4-6', index: 2 },
    ],
  );
  assert.equal(parts.map((p) => p.text).join(''), 'Budget: design.pdf#page=18:3; the figure is on design.pdf#page=2; plotted in analysis.ipynb#cell=4-6, not design.pdf#page=18:4.');
});
