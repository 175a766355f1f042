// Follow-ups in a conversation: a target confirmed once is gathered without the "Bind N files?"
// dialog (a modal would block this test until its timeout).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { gatherWithConfirmation } from '../../../../src/vscode/commands/askCommands';
import { readSettings } from '../../../../src/vscode/settings/readSettings';

describe('follow-ups confirm once per conversation and target', function () {
  this.timeout(60_000);

  it('gathers a confirmed target without asking again, and records a fresh confirmation', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('no workspace folder');
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folder.uri, 'followup/notes.txt'), new TextEncoder().encode('a note\n'));
    const settings = { ...readSettings(), confirmBeforeSending: true };
    let recorded = 0;
    const gathered = await gatherWithConfirmation([{ folder, subPath: 'followup' }], 'followup/', settings, new AbortController().signal, {
      alreadyConfirmed: true,
      confirmed: () => {
        recorded += 1;
      },
    });
    assert.ok(gathered, 'the follow-up was gathered without a dialog');
    assert.equal(gathered.target.fileCount, 1);
    assert.equal(recorded, 0, 'nothing new was confirmed');
  });
});
