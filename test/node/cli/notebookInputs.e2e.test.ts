// `rlm ask` on Jupyter notebooks through the built CLI against the fake model server: a notebook the
// test writes (markdown, code with a printed output, a plot, a long output, an error) is read as its
// text form with cell markers; the model is told it is a notebook and how to cite a cell; a citation
// in cell terms is resolved to the cell's source line and shown so by `rlm show`; a notebook in a
// folder is read as text; broken and hostile notebooks are refused in one sentence, nothing sent.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertCliBuilt, runCli } from './cliProcess';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';

const LONG_OUTPUT = Array.from({ length: 500 }, (_, i) => `epoch ${i} loss ${(1 / (i + 1)).toFixed(4)}\n`);

const NOTEBOOK = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: 'python3', language: 'python' }, language_info: { name: 'python' } },
  cells: [
    { cell_type: 'markdown', metadata: {}, source: ['# Sales analysis\n', 'Revenue by region.'] },
    {
      cell_type: 'code',
      execution_count: 1,
      metadata: {},
      source: ['import pandas as pd\n', "df = pd.read_csv('sales.csv')\n", "print('rows', len(df))"],
      outputs: [{ output_type: 'stream', name: 'stdout', text: ['rows 42\n'] }],
    },
    {
      cell_type: 'code',
      execution_count: 2,
      metadata: {},
      source: 'df.plot()',
      outputs: [{ output_type: 'display_data', metadata: {}, data: { 'image/png': 'iVBORw0KGgo'.repeat(3000), 'text/plain': ['<Figure size 640x480>'] } }],
    },
    { cell_type: 'code', execution_count: 3, metadata: {}, source: ['for epoch in range(500):\n', '    train(epoch)'], outputs: [{ output_type: 'stream', name: 'stdout', text: LONG_OUTPUT }] },
    {
      cell_type: 'code',
      execution_count: 4,
      metadata: {},
      source: '1/0',
      outputs: [{ output_type: 'error', ename: 'ZeroDivisionError', evalue: 'division by zero', traceback: ['\u001b[0;31mZeroDivisionError\u001b[0m: division by zero'] }],
    },
  ],
};

describe('rlm ask on Jupyter notebooks (dist/cli.js)', () => {
  let dir: string;
  let server: FakeModelServer;
  const model = (): string[] => ['--provider', 'openai', '--base-url', server.baseUrl, '--model', 'fake'];
  const firstRequest = (since: number): string => server.completionRequests[since]?.rawBody ?? '';

  before(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-notebook-cli-'));
    writeFileSync(join(dir, 'analysis.ipynb'), JSON.stringify(NOTEBOOK, null, 1));
    mkdirSync(join(dir, 'project'));
    writeFileSync(join(dir, 'project/analysis.ipynb'), JSON.stringify(NOTEBOOK));
    writeFileSync(join(dir, 'project/helpers.py'), 'def train(epoch):\n    pass\n');
    writeFileSync(join(dir, 'broken.ipynb'), '{"cells": [ {"cell_type": "code", "source": ');
    writeFileSync(join(dir, 'deep.ipynb'), `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    writeFileSync(join(dir, 'wrongtypes.ipynb'), JSON.stringify({ nbformat: 4, cells: [{ cell_type: 'code', source: 42, outputs: [] }] }));
    writeFileSync(join(dir, 'notanotebook.ipynb'), JSON.stringify({ hello: 'world' }));
    server = await startFakeModelServer({
      protocol: 'openai',
      // For a str: the markers it holds, what the plot and the long output became, and a citation of
      // cell 2's second source line; for a dict: the keys and the start of the notebook's text.
      respond: () =>
        "```repl\nif isinstance(context, str):\n    FINAL('%d markers; plot named: %s; long output cut: %s; error: %s. The data is read in analysis.ipynb#cell=2:2.' % (context.count('<<< cell '), 'image/png' in context and 'iVBOR' not in context, 'epoch 250 ' not in context and 'epoch 499 ' in context, 'ZeroDivisionError: division by zero' in context and '\\x1b' not in context))\nelse:\n    FINAL(repr(sorted(context)) + '|' + context['project/analysis.ipynb'][:26])\n```",
    });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads a notebook as text with cell markers, tells the model it is one, and resolves a citation of a cell', async () => {
    const since = server.completionRequests.length;
    const out = await runCli(['ask', 'analysis.ipynb', '-q', 'where is the data read?', ...model(), '--json', '--trajectory', 'nb.rlm.jsonl'], dir, {}, undefined, 60_000);
    assert.equal(out.code, 0, out.stderr);
    const json = JSON.parse(out.stdout) as { answer: string; references: Array<{ path: string; line: number; text: string; notebookCell?: unknown }> };
    // 5 cell markers and 4 output markers (the markdown cell has none).
    assert.equal(json.answer, '9 markers; plot named: True; long output cut: True; error: True. The data is read in analysis.ipynb#cell=2:2.');
    assert.equal(json.references.length, 1);
    assert.deepEqual(json.references[0]!.notebookCell, { cell: 2, line: 2 });
    assert.equal(json.references[0]!.text, "df = pd.read_csv('sales.csv')");
    const told = firstRequest(since);
    assert.match(told, /The text is a Jupyter notebook \(python\) in text form: 5 cells \(4 code, 1 markdown\); 1 image or binary outputs named, not included; 1 long text outputs cut to head and tail\./);
    assert.match(told, /analysis\.ipynb#cell=3:2/, 'the model is told how to cite a cell');
    assert.ok(told.includes('<<< cell 1: markdown >>>'), 'the prefix shown is the text form');
    const shown = await runCli(['show', 'nb.rlm.jsonl'], dir, {}, undefined, 30_000);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /Input: +str, [\d,]+ characters, a Jupyter notebook \(python\), 5 cells: 4 code, 1 markdown/);
    assert.match(shown.stdout, /References: analysis\.ipynb#cell=2:2/);
    const exported = await runCli(['export', 'nb.rlm.jsonl', '--to', 'md', '-o', 'nb.md'], dir, {}, undefined, 30_000);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(readFileSync(join(dir, 'nb.md'), 'utf8'), /References[\s\S]*- analysis\.ipynb#cell=2:2 — df = pd\.read_csv/);
  });

  it('reads a notebook inside a folder as its text form, and says how many entries are notebooks', async () => {
    const since = server.completionRequests.length;
    const out = await runCli(['ask', 'project', '-q', 'what is here?', ...model()], dir, {}, undefined, 60_000);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), "['project/analysis.ipynb', 'project/helpers.py']|<<< cell 1: markdown >>>\n#");
    assert.match(firstRequest(since), /1 of the files are Jupyter notebooks \(\.ipynb\), each read as its text form/);
  });

  for (const [file, why] of [
    ['broken.ipynb', /broken\.ipynb is not a Jupyter notebook RLM can read: it is not valid JSON/],
    ['deep.ipynb', /deep\.ipynb is not a Jupyter notebook RLM can read: its JSON nests deeper than 64 levels, which no notebook does\. Nothing was sent to a model\./],
    ['wrongtypes.ipynb', /wrongtypes\.ipynb is not a Jupyter notebook RLM can read: cell 1's "source" is a number, not text\./],
    ['notanotebook.ipynb', /notanotebook\.ipynb is not a Jupyter notebook RLM can read: its "cells" is missing, not a list of cells\./],
  ] as const) {
    it(`refuses ${file} in one sentence, before any model is asked`, async () => {
      const since = server.completionRequests.length;
      const out = await runCli(['ask', file, '-q', 'what?', ...model()], dir, {}, undefined, 30_000);
      assert.notEqual(out.code, 0);
      assert.match(out.stderr, why);
      assert.equal(out.stderr.trim().split('\n').length, 1, out.stderr);
      assert.equal(server.completionRequests.length, since, 'no model was asked');
    });
  }
});
