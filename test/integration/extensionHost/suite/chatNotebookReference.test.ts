// `@rlm` in the Chat view lists an answer's references as locations (referenceLocation, the function
// its participant uses): a reference to a notebook's cell must point at the cell itself (the cell's
// document inside the notebook, which VS Code opens in the notebook editor at that cell), at the cited
// source line, not at a line of the notebook's text form. The notebook is made here.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { mentionLocation, referenceLocation } from '../../../../src/vscode/trajectory/referenceOpener';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { relative } from 'node:path';
import { activatedExtension } from './suiteHelpers';

const NOTEBOOK = JSON.stringify({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: {},
  cells: [
    { cell_type: 'markdown', metadata: {}, source: ['# Load'] },
    { cell_type: 'code', metadata: {}, execution_count: 1, source: ['rows = load()\n', 'print(len(rows))\n', 'done = True'], outputs: [] },
  ],
});

describe('@rlm references to a notebook cell', function () {
  this.timeout(60_000);

  it('point at the cell and its source line, not at a line of the text form', async () => {
    await activatedExtension();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'a workspace folder');
    mkdirSync(join(root, 'chatnb'), { recursive: true });
    const abs = join(root, 'chatnb', 'analysis.ipynb');
    writeFileSync(abs, NOTEBOOK);
    // Line 6 of the text form is line 2 of cell 2's source.
    const location = await referenceLocation({ path: 'chatnb/analysis.ipynb', line: 6, endLine: 7, text: 'print(len(rows))', notebookCell: { cell: 2, line: 2, endLine: 3 } }, undefined, abs);
    assert.ok(location, 'a location');
    assert.equal(location.uri.scheme, 'vscode-notebook-cell');
    assert.equal(location.uri.fsPath, abs);
    const notebook = vscode.workspace.notebookDocuments.find((d) => d.uri.fsPath === abs);
    assert.equal(notebook?.cellAt(1).document.uri.toString(), location.uri.toString(), 'the second cell');
    assert.deepEqual([location.range.start.line, location.range.end.line], [1, 2], 'source lines 2-3 of the cell');
    // A plain line reference of the same file still points at the file.
    const plain = await referenceLocation({ path: 'chatnb/analysis.ipynb', line: 1, text: '' }, undefined, abs);
    assert.equal(plain?.uri.scheme, 'file');
  });

  it("an answer's mention of a cell or a page opens there; outside the workspace, missing, or no such cell: no link", async () => {
    await activatedExtension();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'a workspace folder');
    mkdirSync(join(root, 'chatnb'), { recursive: true });
    writeFileSync(join(root, 'chatnb', 'mentioned.ipynb'), NOTEBOOK);
    writeFileSync(join(root, 'chatnb', 'design.pdf'), '%PDF-1.4 (opened as its page text view; not parsed here)');
    const cell = await mentionLocation({ path: 'chatnb/mentioned.ipynb', line: 1, notebookCell: { cell: 2, line: 2 } });
    assert.equal(cell?.uri.scheme, 'vscode-notebook-cell');
    assert.equal(cell?.uri.fsPath, join(root, 'chatnb', 'mentioned.ipynb'));
    assert.deepEqual([cell?.range.start.line, cell?.range.end.line], [1, 1], 'line 2 of the cell');
    assert.equal(await mentionLocation({ path: 'chatnb/mentioned.ipynb', line: 1, notebookCell: { cell: 9 } }), undefined, 'no cell 9: no link, not a line of the JSON');
    assert.equal(await mentionLocation({ path: 'chatnb/missing.ipynb', line: 1, notebookCell: { cell: 1 } }), undefined, 'a file not found');
    const outside = mkdtempSync(join(tmpdir(), 'rlm-outside-'));
    writeFileSync(join(outside, 'secret.ipynb'), NOTEBOOK);
    writeFileSync(join(outside, 'x.pdf'), '%PDF-1.4');
    assert.equal(await mentionLocation({ path: relative(root, join(outside, 'secret.ipynb')), line: 1, notebookCell: { cell: 1 } }), undefined, 'a notebook outside the workspace');
    const page = await mentionLocation({ path: 'chatnb/design.pdf#page=18', line: 3 });
    assert.equal(page?.uri.scheme, 'rlm-pdf-page');
    assert.match(page?.uri.path ?? '', /chatnb\/design\.pdf \(page 18, extracted text\)$/);
    assert.equal(page?.range.start.line, 3, 'line 3 of the page, after its header line');
    assert.equal(await mentionLocation({ path: relative(root, join(outside, 'x.pdf')) + '#page=1', line: 1 }), undefined, 'a PDF outside the workspace');
  });
});
