// A folder holding a PDF, an encrypted PDF, a notebook and a gzip'd log, gathered inside VS Code as
// "Ask about folder..." gathers it: the PDF is its pages' text under page markers, the notebook its
// cells' text (not its JSON), the log decompressed; the encrypted PDF is left out with the sentence that
// says why; the metadata's format counts them. Over rlm.contextLimitMb the same folder is listed only:
// no PDF is parsed before the model reads it. The files are made here.
import * as assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import * as vscode from 'vscode';
import { gatherWorkspace } from '../../../../src/vscode/context/gatherWorkspace';
import { readSettings } from '../../../../src/vscode/settings/readSettings';
import { makePdf } from '../../../support/pdfMaker';
import { activatedExtension } from './suiteHelpers';

const NOTEBOOK = JSON.stringify({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: {},
  cells: [{ cell_type: 'code', metadata: {}, execution_count: 1, source: ['x = 1'], outputs: [] }],
});

function folder(): vscode.WorkspaceFolder {
  const f = vscode.workspace.workspaceFolders?.[0];
  if (!f) throw new Error('no workspace folder');
  return f;
}

describe('compressed logs, notebooks and PDFs inside a folder in VS Code', function () {
  this.timeout(120_000);

  before(async () => {
    const extension = await activatedExtension();
    // This suite's bundle calls gatherWorkspace itself, so the PDF worker is looked for beside the suite's
    // bundle (__dirname); the extension's own (packaged) worker is put there, as the extension finds it beside its own.
    const worker = join(__dirname, 'pdfWorker.js');
    if (!existsSync(worker)) copyFileSync(join(extension.extensionPath, 'dist', 'pdfWorker.js'), worker);
    const base = vscode.Uri.joinPath(folder().uri, 'formats').fsPath;
    mkdirSync(base, { recursive: true });
    writeFileSync(join(base, 'design.pdf'), makePdf([{ lines: ['Design overview'] }, {}, { lines: ['ERROR budget is 3 percent'] }]));
    writeFileSync(join(base, 'secret.pdf'), makePdf([{ lines: ['the launch code'] }], { encrypted: true }));
    writeFileSync(join(base, 'analysis.ipynb'), NOTEBOOK);
    writeFileSync(join(base, 'app.log.gz'), gzipSync('GET / 200\nGET /x 503\n'));
  });

  after(async () => {
    await vscode.workspace.getConfiguration('rlm').update('contextLimitMb', undefined, vscode.ConfigurationTarget.Global);
  });

  it('reads each as its text, leaves out an encrypted PDF with its reason, and counts them in the format', async () => {
    const source = new vscode.CancellationTokenSource();
    const outcome = await gatherWorkspace([{ folder: folder(), subPath: 'formats' }], readSettings(), { report: () => undefined }, source.token);
    const text = (path: string): string => {
      const content = outcome.files.find((f) => f.path === path)?.content;
      return typeof content === 'string' ? content : new TextDecoder().decode(content);
    };
    assert.deepEqual(outcome.files.map((f) => f.path).sort(), ['formats/analysis.ipynb', 'formats/app.log.gz', 'formats/design.pdf'], JSON.stringify(outcome.target.skipped));
    assert.equal(text('formats/design.pdf'), '<<< page 1 of 3 >>>\nDesign overview\n<<< page 2 of 3: no text (scanned or images only) >>>\n<<< page 3 of 3 >>>\nERROR budget is 3 percent\n');
    assert.match(text('formats/analysis.ipynb'), /^<<< cell 1: code/);
    assert.equal(text('formats/app.log.gz'), 'GET / 200\nGET /x 503\n');
    const secret = outcome.target.skipped.find((s) => s.path === 'formats/secret.pdf');
    assert.equal(secret?.reason, 'unreadable');
    assert.match(secret?.detail ?? '', /secret\.pdf is encrypted/);
    assert.deepEqual(outcome.format, { compressedFiles: 1, notebooks: 1, pdfs: { files: 1, read: 1, pages: 3, textlessPages: 1 } });
  });

  it('over rlm.contextLimitMb lists the PDFs without parsing them: their pages are not yet read', async () => {
    await vscode.workspace.getConfiguration('rlm').update('contextLimitMb', 0.001, vscode.ConfigurationTarget.Global);
    const source = new vscode.CancellationTokenSource();
    const outcome = await gatherWorkspace([{ folder: folder(), subPath: 'formats' }], readSettings(), { report: () => undefined }, source.token);
    assert.ok(outcome.plan, 'bound lazily');
    const pdfs = outcome.plan.files.filter((f) => f.pdfText !== undefined).map((f) => f.path);
    assert.deepEqual(pdfs, ['formats/design.pdf', 'formats/secret.pdf']);
    assert.deepEqual(outcome.plan.format?.pdfs, { files: 2, read: 0, pages: 0, textlessPages: 0 });
  });
});
