// A REPL costs nothing at activation, and is started (one spare) once the chat opens, so the first
// question does not wait for it. (Files run in name order: this one before extensionFlows, whose runs
// start REPLs of their own.)
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { RlmExtensionApi } from '../../../../src/vscode/extension';
import { activatedExtension } from './suiteHelpers';

describe('the spare REPL', function () {
  this.timeout(60_000);

  it('is started once the RLM chat opens (activation.test.ts checks none was before)', async () => {
    const api = (await activatedExtension()).exports as RlmExtensionApi;
    assert.deepEqual(api.services.replPoolState, { created: false, spares: 0 }, 'a REPL was started before the chat opened');
    await vscode.commands.executeCommand('rlm.chat.focus');
    const started = Date.now();
    while (!api.services.replPoolState.created || api.services.replPoolState.spares === 0) {
      if (Date.now() - started > 30_000) assert.fail(`no spare REPL 30 s after the chat opened: ${JSON.stringify(api.services.replPoolState)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    assert.equal(api.services.replPoolState.spares, 1);
  });
});
