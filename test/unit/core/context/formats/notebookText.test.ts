// A notebook's text form: cell markers with number, kind and execution count; sources as written; text
// outputs cut to head and tail; binary outputs named with their size; the cell map both ways.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cellOfTextLine, notebookText, textLineOfCell } from '../../../../../src/core/context/notebookText';
import type { NotebookCell } from '../../../../../src/core/context/notebookText';

const cells: NotebookCell[] = [
  { kind: 'markdown', source: '# Title\nSome words.', outputs: [], attachments: ['plot.png'] },
  { kind: 'code', source: 'import os\nx = 1\n', executionCount: 3, outputs: [{ kind: 'stream', name: 'stdout', text: 'hello\n' }] },
  { kind: 'code', source: '', outputs: [] },
  {
    kind: 'code',
    source: 'plot()',
    executionCount: 4,
    outputs: [
      { kind: 'data', result: false, items: [{ mime: 'image/png', bytes: 40_000 }, { mime: 'text/plain', text: '<Figure>', bytes: 8 }, { mime: 'text/html', text: '<b>x</b>', bytes: 8 }] },
      { kind: 'data', result: true, items: [{ mime: 'application/vnd.jupyter.widget-view+json', bytes: 120 }] },
      { kind: 'error', ename: 'ValueError', evalue: 'bad', traceback: '\u001b[0;31mValueError\u001b[0m: bad' },
    ],
  },
  { kind: 'raw', source: 'raw text', outputs: [] },
];

test('notebookText: markers name each cell by number, kind and run; sources are kept as written', () => {
  const nb = notebookText(cells, 'python');
  assert.equal(
    nb.text,
    [
      '<<< cell 1: markdown, attachments: plot.png >>>',
      '# Title',
      'Some words.',
      '',
      '<<< cell 2: code, In [3] >>>',
      'import os',
      'x = 1',
      '<<< cell 2 output 1: stdout >>>',
      'hello',
      '',
      '<<< cell 3: code, not run >>>',
      '',
      '<<< cell 4: code, In [4] >>>',
      'plot()',
      '<<< cell 4 output 1: display text/plain; also image/png (39.1 KB), not shown >>>',
      '<Figure>',
      '<<< cell 4 output 2: result, application/vnd.jupyter.widget-view+json (120 B), not shown >>>',
      '<<< cell 4 output 3: error ValueError >>>',
      'ValueError: bad',
      '',
      '<<< cell 5: raw >>>',
      'raw text',
      '',
    ].join('\n'),
  );
  assert.deepEqual(nb.summary, { cells: 5, code: 3, markdown: 1, raw: 1, language: 'python', binaryOutputs: 2, truncatedOutputs: 0 });
});

test('notebookText: a long text output keeps its head and tail and says what was left out', () => {
  const text = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
  const nb = notebookText([{ kind: 'code', source: 'train()', executionCount: 1, outputs: [{ kind: 'stream', name: 'stdout', text }] }]);
  const lines = nb.text.split('\n');
  assert.ok(lines.includes('line 0') && lines.includes('line 29') && !lines.includes('line 30'));
  assert.ok(lines.includes('line 999') && lines.includes('line 990') && !lines.includes('line 989'));
  assert.ok(lines.includes('[… 960 lines, 8,569 characters of this output not shown …]'), nb.text);
  assert.equal(nb.summary.truncatedOutputs, 1);
  // One line of a megabyte is cut too: the head keeps its first characters.
  const wide = notebookText([{ kind: 'code', source: 'x', outputs: [{ kind: 'stream', name: 'stdout', text: 'a'.repeat(1_000_000) }] }]);
  assert.ok(wide.text.length < 7000, `${wide.text.length} characters`);
});

test('the cell map: a cell source line to its line of the text, and back', () => {
  const nb = notebookText(cells);
  const lines = nb.text.split('\n');
  assert.equal(lines[textLineOfCell(nb.cells, 2, 2)! - 1], 'x = 1');
  assert.equal(lines[textLineOfCell(nb.cells, 5, 1)! - 1], 'raw text');
  assert.equal(textLineOfCell(nb.cells, 2, 3), undefined, 'cell 2 has 2 source lines');
  assert.equal(textLineOfCell(nb.cells, 3, 1), undefined, 'cell 3 is empty');
  assert.equal(textLineOfCell(nb.cells, 6, 1), undefined, 'there is no cell 6');
  assert.deepEqual(cellOfTextLine(nb.cells, 7), { cell: 2, line: 2 });
  assert.deepEqual(cellOfTextLine(nb.cells, 5), { cell: 2 }, 'a marker line belongs to its cell, not its source');
  assert.deepEqual(cellOfTextLine(nb.cells, 9), { cell: 2 }, 'an output line');
  assert.deepEqual(cellOfTextLine(nb.cells, 22), { cell: 5, line: 1 });
  assert.equal(cellOfTextLine(nb.cells, 0), undefined);
});
