// The extension is found, activates without throwing, and exposes what it promises on activation.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { EXTENSION_ID, activatedExtension } from './suiteHelpers';

describe('activation', () => {
  it('is installed under its manifest id', () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `extension ${EXTENSION_ID} is not loaded; installed: ${vscode.extensions.all.map((e) => e.id).filter((id) => !id.startsWith('vscode.')).join(', ')}`);
  });

  it('activates without throwing', async () => {
    const extension = await activatedExtension();
    assert.equal(extension.isActive, true);
  });

  it('runs with a workspace folder open', () => {
    assert.ok(vscode.workspace.workspaceFolders && vscode.workspace.workspaceFolders.length > 0, 'the suite expects the sample workspace to be open');
  });
});
