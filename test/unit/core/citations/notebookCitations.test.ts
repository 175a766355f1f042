// Citations of a notebook's cells: `x.ipynb#cell=3:2` found in an answer, resolved to the line of the
// notebook's text form, and a plain `x.ipynb:N` said in cell terms too; out-of-range cells and lines
// are listed as unresolved with the reason. Labels and answer mentions use the same terms.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { findCitations } from '../../../../src/core/citations/citationParse';
import { lookupForSource, resolveCitations } from '../../../../src/core/citations/citationResolve';
import { notebookText } from '../../../../src/core/context/notebookText';
import { referenceLabel } from '../../../../src/shared/text/referenceLabel';
import { splitMentions } from '../../../../src/shared/text/answerMentions';

const nb = notebookText([
  { kind: 'markdown', source: '# Sales', outputs: [] },
  { kind: 'code', source: 'import pandas as pd\nsales = pd.read_csv("s.csv")\nsales.sum()', executionCount: 1, outputs: [{ kind: 'stream', name: 'stdout', text: 'total 2000\n' }] },
]);
const source = { kind: 'text' as const, text: nb.text, label: 'work/analysis.ipynb', notebook: { cells: nb.cells, summary: nb.summary } };

test('findCitations: the cell forms, in the order of the answer, next to line citations', () => {
  const found = findCitations('See a.py:3, then analysis.ipynb#cell=2:2, analysis.ipynb#cell=2:1-3 and analysis.ipynb#cell=1.', () => false);
  assert.deepEqual(
    found.map((c) => [c.raw, c.cell]),
    [
      ['a.py:3', undefined],
      ['analysis.ipynb#cell=2:2', { cell: 2, line: 2 }],
      ['analysis.ipynb#cell=2:1-3', { cell: 2, line: 1, endLine: 3 }],
      ['analysis.ipynb#cell=1', { cell: 1 }],
    ],
  );
});

test('resolveCitations: a cell line becomes its line of the text form, with the cell kept for display and opening', async () => {
  const { references, unresolved } = await resolveCitations(
    'Read at analysis.ipynb#cell=2:2; printed in analysis.ipynb:9; whole cell analysis.ipynb#cell=1. Bad: analysis.ipynb#cell=9:1, analysis.ipynb#cell=2:7, analysis.ipynb#cell=2:3-1.',
    lookupForSource(source),
  );
  assert.deepEqual(
    references.map((r) => ({ line: r.line, endLine: r.endLine, cell: r.notebookCell, text: r.text })),
    [
      { line: 6, endLine: undefined, cell: { cell: 2, line: 2 }, text: 'sales = pd.read_csv("s.csv")' },
      { line: 9, endLine: undefined, cell: { cell: 2 }, text: 'total 2000' },
      { line: 1, endLine: 2, cell: { cell: 1 }, text: '<<< cell 1: markdown >>>\n# Sales' },
    ],
  );
  assert.deepEqual(
    unresolved.map((u) => [u.citation, u.reason, u.detail]),
    [
      ['analysis.ipynb#cell=9:1', 'line-out-of-range', 'work/analysis.ipynb has 2 cells'],
      ['analysis.ipynb#cell=2:7', 'line-out-of-range', 'cell 2 of work/analysis.ipynb has 3 lines of source'],
      ['analysis.ipynb#cell=2:3-1', 'bad-range', 'the range ends (1) before it starts (3)'],
    ],
  );
  assert.deepEqual(references.map(referenceLabel), ['work/analysis.ipynb#cell=2:2', 'work/analysis.ipynb#cell=2', 'work/analysis.ipynb#cell=1']);
});

test('referenceLabel ignores a malformed cell from a record; mentions of a cell become links to it', () => {
  assert.equal(referenceLabel({ path: 'a.ipynb', line: 5, notebookCell: { cell: -1 } }), 'a.ipynb:5');
  assert.equal(referenceLabel({ path: 'a.ipynb', line: 5, notebookCell: { cell: 2, line: 1, endLine: 3 } }), 'a.ipynb#cell=2:1-3');
  assert.equal(referenceLabel({ path: 'a.ipynb', line: 5, endLine: 20, notebookCell: { cell: 2, endCell: 4 } }), 'a.ipynb#cell=2-4');
  const refs = [{ path: 'work/analysis.ipynb', line: 5, notebookCell: { cell: 2, line: 2 } }];
  assert.deepEqual(splitMentions('at analysis.ipynb#cell=2:2 and analysis.ipynb#cell=2:3.', refs), [
    { kind: 'text', text: 'at ' },
    { kind: 'mention', text: 'analysis.ipynb#cell=2:2', index: 0 },
    { kind: 'text', text: ' and analysis.ipynb#cell=2:3.' },
  ]);
});
