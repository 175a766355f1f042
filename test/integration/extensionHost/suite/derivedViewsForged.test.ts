// RLM's read-only views (a slice of a large file, a PDF page's text, a compressed log's decompressed
// lines) are served for URIs of RLM's own schemes. Such a URI can come from anywhere (a link in a chat
// answer or a recorded run), so one that names a file in its query, as these once did, must show
// nothing of that file: only views the reference opener issued in this window are served.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { activatedExtension } from './suiteHelpers';

describe("RLM's read-only views", function () {
  this.timeout(60_000);

  it('a forged URI naming a file shows that the view is not available, and nothing of the file', async () => {
    await activatedExtension();
    const root = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(root, 'a workspace folder');
    mkdirSync(join(root, 'forged'), { recursive: true });
    const secret = join(root, 'forged', 'secret.txt');
    writeFileSync(secret, 'SECRET-TOKEN-7781\n');
    const forged = [
      vscode.Uri.from({ scheme: 'rlm-slice', path: '/big.log (around line 1)', query: new URLSearchParams({ abs: secret, line: '1', end: '1' }).toString() }),
      vscode.Uri.from({ scheme: 'rlm-pdf-page', path: '/design.pdf (page 1, extracted text)', query: new URLSearchParams({ abs: secret, shown: 'design.pdf', page: '1' }).toString() }),
      vscode.Uri.from({ scheme: 'rlm-decompressed', path: '/app.log.gz (decompressed, around line 1)', query: new URLSearchParams({ abs: secret, shown: 'app.log.gz', format: 'gzip', line: '1', end: '1' }).toString() }),
      vscode.Uri.from({ scheme: 'rlm-slice', path: '/big.log (around line 1)', query: new URLSearchParams({ id: '00000000-0000-4000-8000-000000000000' }).toString() }),
    ];
    for (const uri of forged) {
      const text = (await vscode.workspace.openTextDocument(uri)).getText();
      assert.match(text, /is not available/, uri.toString());
      assert.doesNotMatch(text, /SECRET-TOKEN/, uri.toString());
    }
  });
});
