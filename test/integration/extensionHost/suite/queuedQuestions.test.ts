// Runs after chatPrewarm.test.ts (files run in name order): asking starts REPLs, which that file checks did not happen before the chat opened.
// A second "Ask RLM about this file" on a file whose question is still running: the typed question
// is kept and VS Code offers to queue it or stop the other run; when the other run ends while the
// offer is open, the offer closes and the question goes ahead.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../../src/eval/fakeServers/fakeServerTypes';
import type { ActiveRun } from '../../../../src/vscode/run/activeRun';
import { activatedExtension } from './suiteHelpers';

describe('a second question on a running target', function () {
  this.timeout(120_000);
  let server: FakeModelServer | undefined;
  // Holds the slow questions' first reply until opened (a request may arrive before or after).
  const gate = { open: false, waiters: [] as Array<() => void> };
  const release = (): void => {
    gate.open = true;
    for (const w of gate.waiters.splice(0)) w();
  };

  before(async () => {
    await activatedExtension();
    server = await startFakeOpenAIServer({
      respond: async (request) => {
        const last = request.messages.at(-1)?.content ?? '';
        if (request.messages.some((m) => m.role === 'assistant')) return 'Done.\nFINAL_VAR(found)';
        // The first question is held until the test releases it.
        if (last.includes('slow question') && !gate.open) await new Promise<void>((r) => gate.waiters.push(r));
        return '```repl\nfound = "ok"\nprint(found)\n```';
      },
    });
    const config = vscode.workspace.getConfiguration('rlm');
    for (const [key, value] of Object.entries({ 'root.provider': 'openai', 'root.baseUrl': server.baseUrl, 'root.model': 'fake-model' })) await config.update(key, value, vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    release();
    const config = vscode.workspace.getConfiguration('rlm');
    for (const key of ['root.provider', 'root.baseUrl', 'root.model']) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    await server?.close();
  });

  it('queues the second question behind the first, or lets it through when the first ends meanwhile', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new Error('no workspace folder');
    const file = vscode.Uri.joinPath(folder.uri, 'busy/target.txt');
    await vscode.workspace.fs.writeFile(file, new TextEncoder().encode('some text\n'));

    // Queue: the offer's first item is "Ask when it ends".
    const first = (await vscode.commands.executeCommand('rlm.askAboutFile', file, { question: 'A slow question' })) as ActiveRun | undefined;
    assert.ok(first);
    const second = vscode.commands.executeCommand('rlm.askAboutFile', file, { question: 'A queued question' }) as Thenable<ActiveRun | undefined>;
    await new Promise((r) => setTimeout(r, 1000));
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await new Promise((r) => setTimeout(r, 500));
    let secondStarted = false;
    void Promise.resolve(second).then(() => { secondStarted = true; });
    assert.equal(secondStarted, false, 'the queued question waits while the first runs');
    release();
    assert.equal((await first.result).status, 'completed');
    const queued = await second;
    assert.ok(queued, 'the queued question started once the first ended');
    assert.equal(queued.question, 'A queued question');
    assert.equal((await queued.result).status, 'completed');

    // The first ends while the offer is still open: the offer closes and the question goes ahead.
    gate.open = false;
    const third = (await vscode.commands.executeCommand('rlm.askAboutFile', file, { question: 'Another slow question' })) as ActiveRun | undefined;
    assert.ok(third);
    const fourth = vscode.commands.executeCommand('rlm.askAboutFile', file, { question: 'Asked while it ran' }) as Thenable<ActiveRun | undefined>;
    await new Promise((r) => setTimeout(r, 1000));
    release();
    const went = await fourth;
    assert.ok(went, 'the question went ahead without an answer to the offer');
    assert.equal(went.question, 'Asked while it ran');
    assert.equal((await went.result).status, 'completed');
  });
});
