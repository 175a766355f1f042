// A .ipynb's bytes read as a notebook, and the hostile or broken ones refused with a sentence: not JSON,
// nested deeper than any notebook, too many values, too large, wrong types, an old nbformat.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NOTEBOOK_MAX_BYTES, NotebookShapeError, parseNotebook } from '../../../../../src/core/context/notebookJson';

const bytes = (value: unknown): Uint8Array => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
const refused = (input: Uint8Array, why: RegExp): void => {
  assert.throws(() => parseNotebook(input), (error: unknown) => error instanceof NotebookShapeError && why.test(error.detail));
};

test('parseNotebook: nbformat 4 cells, their sources as strings or lists, outputs by type, the language', () => {
  const nb = parseNotebook(
    bytes({
      nbformat: 4,
      metadata: { language_info: { name: 'julia' } },
      cells: [
        { cell_type: 'markdown', source: ['a\n', 'b'], attachments: { 'img.png': {} } },
        {
          cell_type: 'code',
          source: 'x',
          execution_count: 7,
          outputs: [
            { output_type: 'stream', name: 'stderr', text: ['warn\n'] },
            { output_type: 'execute_result', data: { 'text/plain': ['1'], 'application/json': { a: [1] } } },
            { output_type: 'error', ename: 'E', evalue: 'v', traceback: [] },
          ],
        },
        { cell_type: 'raw', source: '' },
      ],
    }),
  );
  assert.equal(nb.language, 'julia');
  assert.deepEqual(nb.cells[0], { kind: 'markdown', source: 'a\nb', outputs: [], attachments: ['img.png'] });
  assert.equal(nb.cells[1]!.executionCount, 7);
  assert.deepEqual(nb.cells[1]!.outputs[0], { kind: 'stream', name: 'stderr', text: 'warn\n' });
  assert.deepEqual(nb.cells[1]!.outputs[2], { kind: 'error', ename: 'E', evalue: 'v', traceback: 'E: v' });
  const data = nb.cells[1]!.outputs[1]!;
  assert.ok(data.kind === 'data' && data.result && data.items.some((i) => i.mime === 'application/json' && i.text?.includes('"a"')));
});

test('parseNotebook refuses what is not a notebook, saying what is wrong', () => {
  refused(bytes('{"cells": ['), /not valid JSON/);
  refused(bytes('[1, 2]'), /its JSON is a list, not a notebook object/);
  refused(bytes({ hello: 1 }), /"cells" is missing, not a list of cells/);
  refused(bytes({ nbformat: 3, worksheets: [] }), /nbformat 3; only nbformat 4 is read/);
  refused(bytes({ cells: [{ cell_type: 'code', source: 42 }] }), /cell 1's "source" is a number, not text/);
  refused(bytes({ cells: [{ cell_type: 'code', source: ['a', 7] }] }), /cell 1's "source" is a list, not text/);
  refused(bytes({ cells: [{ cell_type: 'plot', source: '' }] }), /cell 1 has cell_type "plot"; cells are code, markdown or raw/);
  refused(bytes({ cells: [null] }), /cell 1 is null, not a cell/);
  refused(bytes({ cells: [{ cell_type: 'code', source: '', outputs: {} }] }), /cell 1's "outputs" is an object, not a list/);
  refused(bytes({ cells: [{ cell_type: 'code', source: '', outputs: [{ output_type: 'video' }] }] }), /cell 1's output 1 has output_type "video"/);
  refused(bytes({ cells: [{ cell_type: 'code', source: '', outputs: [{ output_type: 'stream', text: 5 }] }] }), /cell 1's output 1's "text" is a number, not text/);
});

test('parseNotebook refuses hostile shapes before JSON.parse builds them', () => {
  // 100,000 levels would overflow a recursive walk; the scan stops at the 65th.
  refused(bytes(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), /nests deeper than 64 levels/);
  // Brackets inside strings are text, not nesting.
  assert.equal(parseNotebook(bytes({ cells: [{ cell_type: 'markdown', source: '['.repeat(1000) + '\\"{' }] })).cells.length, 1);
  refused(bytes(`{"cells": [${'{},'.repeat(1_000_001)}{}]}`), /more than 1,000,000 objects and arrays/);
  refused(bytes(`{"cells": [], "x": [${'1,'.repeat(5_000_001)}1]}`), /more than 5,000,000 values/);
  refused(new Uint8Array(NOTEBOOK_MAX_BYTES + 1), /over 64 MB/);
});

test('parseNotebook: a deeply nested JSON output costs no more text than the file held (no indentation blow-up)', () => {
  // 55 deep, 200,000 values: indented, every value's line carried 55 spaces (about 30 times the file).
  const value = '['.repeat(55) + '1,'.repeat(200_000) + '1' + ']'.repeat(55);
  const file = `{"nbformat":4,"cells":[{"cell_type":"code","source":"x","outputs":[{"output_type":"execute_result","data":{"application/json":${value}}}]}]}`;
  const output = parseNotebook(bytes(file)).cells[0]!.outputs[0]!;
  assert.equal(output.kind, 'data');
  const item = output.kind === 'data' ? output.items[0]! : undefined;
  assert.ok(item?.text !== undefined);
  assert.ok(item.text.length <= file.length, `${item.text.length} characters of text from a ${file.length}-byte file`);
  assert.equal(item.text, value.replace(/\s/g, ''));
  // Control: a small JSON output is still indented for reading.
  const small = parseNotebook(bytes({ nbformat: 4, cells: [{ cell_type: 'code', source: 'x', outputs: [{ output_type: 'display_data', data: { 'application/json': { a: [1, 2] } } }] }] })).cells[0]!.outputs[0]!;
  assert.equal(small.kind === 'data' ? small.items[0]!.text : undefined, '{\n "a": [\n  1,\n  2\n ]\n}');
});

test('parseNotebook: prototype keys and duplicate keys are data, never the shape of the objects read', () => {
  const file = '{"nbformat":4,"cells":[{"__proto__":{"cell_type":"code"},"cell_type":"markdown","cell_type":"raw","source":"s","constructor":{"prototype":{"polluted":true}},"outputs":[]}]}';
  const nb = parseNotebook(bytes(file));
  assert.equal(nb.cells[0]!.kind, 'raw', 'the last duplicate key wins, as JSON.parse reads it');
  assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  refused(bytes('{"nbformat":4,"cells":[{"cell_type":"code","source":"s","outputs":{"__proto__":[]}}]}'), /"outputs" is an object, not a list/);
});
