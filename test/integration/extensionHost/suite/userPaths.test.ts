// User paths walked through the real commands inside VS Code, against a fake model server: "Ask about
// folder..." honouring files.exclude and search.exclude as written to the workspace's settings.json,
// "Ask RLM about this file" on an untitled document, Stop (what the status bar item and the view-title
// button run) on a running question, and "Open trajectory..." given a file.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeModelServer, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import type { ActiveRun } from '../../../../src/vscode/run/activeRun';
import { activatedExtension } from './suiteHelpers';

function folder(): vscode.WorkspaceFolder {
  const f = vscode.workspace.workspaceFolders?.[0];
  if (!f) throw new Error('no workspace folder');
  return f;
}

async function write(rel: string, content: string): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(folder().uri, rel);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
  return uri;
}

/** Turn 1 runs the question's code (after "CODE:"), turn 2 answers with `result`; "SLOW" never answers in time. */
function respond(request: FakeModelRequest): FakeResponse {
  const text = request.messages.map((m) => m.content).join('\n');
  if (/single word OK/.test(text)) return 'OK';
  if (/SLOW/.test(text)) return { text: '```repl\nprint(1)\n```', latencyMs: 120_000 };
  const last = request.messages.at(-1);
  const previous = request.messages.at(-2);
  if (last?.role === 'user' && previous?.role === 'assistant' && previous.content.includes('```repl')) return 'FINAL_VAR(result)';
  const code = /CODE: (.*)/.exec(text)?.[1] ?? 'result = "no code in the question"';
  return `\`\`\`repl\n${code}\nprint(result)\n\`\`\``;
}

async function waitFor(what: string, check: () => boolean, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('user paths through the commands', function () {
  this.timeout(240_000);
  let server: FakeModelServer;
  const rlm = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('rlm');

  before(async () => {
    await activatedExtension();
    server = await startFakeOpenAIServer({ respond });
    for (const [key, value] of Object.entries({ 'root.provider': 'openai', 'root.baseUrl': server.baseUrl, 'root.model': 'fake-model', confirmBeforeSending: false })) {
      await rlm().update(key, value, vscode.ConfigurationTarget.Global);
    }
  });

  after(async () => {
    for (const key of ['root.provider', 'root.baseUrl', 'root.model', 'confirmBeforeSending']) await rlm().update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration('files').update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.getConfiguration('search').update('exclude', undefined, vscode.ConfigurationTarget.Workspace);
    await server?.close();
  });

  it('"Ask about folder..." binds the folder without what files.exclude and search.exclude (workspace settings) hide', async () => {
    await write('excl/kept.ts', 'export const kept = 1;\n');
    await write('excl/generated.gen.ts', 'generated');
    await write('excl/vendor/lib.js', 'vendored');
    await write('excl/shown.txt', 'a files.exclude entry set to false hides nothing');
    // Written through VS Code into the workspace's .vscode/settings.json, as the Settings editor does.
    await vscode.workspace.getConfiguration('files').update('exclude', { '**/*.gen.ts': true, '**/shown.txt': false }, vscode.ConfigurationTarget.Workspace);
    await vscode.workspace.getConfiguration('search').update('exclude', { '**/vendor': true }, vscode.ConfigurationTarget.Workspace);
    const settingsFile = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder().uri, '.vscode', 'settings.json')));
    assert.match(settingsFile, /\*\*\/vendor/);
    const run = (await vscode.commands.executeCommand('rlm.askAboutFolder', vscode.Uri.joinPath(folder().uri, 'excl'), {
      question: 'Which files? CODE: result = ",".join(sorted(context))',
    })) as ActiveRun | undefined;
    assert.ok(run, 'the command started a run');
    const result = await run.result;
    assert.equal(result.status, 'completed', JSON.stringify(result.error));
    assert.equal(result.answer, 'excl/kept.ts,excl/shown.txt');
  });

  it('"Ask RLM about this file" answers about an untitled document, unsaved text and all', async () => {
    const doc = await vscode.workspace.openTextDocument({ content: 'alpha\nbeta\ngamma\ndelta\n', language: 'plaintext' });
    await vscode.window.showTextDocument(doc);
    assert.equal(doc.uri.scheme, 'untitled');
    // No URI argument: the command takes the active editor, as from the palette or the editor title.
    const run = (await vscode.commands.executeCommand('rlm.askAboutFile', undefined, {
      question: 'Lines? CODE: result = f"{len(context.splitlines())} lines, last {context.split()[-1]}"',
    })) as ActiveRun | undefined;
    assert.ok(run, 'the command started a run');
    const result = await run.result;
    assert.equal(result.status, 'completed', JSON.stringify(result.error));
    assert.equal(result.answer, '4 lines, last delta');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('Stop (the status bar item\'s command) stops the running question, which ends cancelled and is recorded', async () => {
    const target = await write('stop/me.txt', 'some text');
    const run = (await vscode.commands.executeCommand('rlm.askAboutFile', target, { question: 'SLOW question' })) as ActiveRun | undefined;
    assert.ok(run, 'the command started a run');
    // Stop once the root model was asked (the slow answer is pending), not while the REPL starts.
    await waitFor('the root model request', () => server.completionRequests.some((r) => r.rawBody.includes('SLOW question')), 120_000);
    const statusBarItemCommand = 'rlm.stop';
    await vscode.commands.executeCommand(statusBarItemCommand);
    const result = await run.result;
    assert.equal(result.status, 'cancelled');
    assert.ok(run.trajectoryPath, 'the stopped run was recorded');
    const records = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.file(run.trajectoryPath))).trim().split('\n').map((l) => JSON.parse(l) as { type?: string; status?: string });
    assert.equal(records.find((r) => r.type === 'run.finished')?.status, 'cancelled');
  });

  it('"Open trajectory..." given a recorded run opens it in the trajectory editor', async () => {
    const { services } = (await activatedExtension()).exports as { services: { trajectoryDirectory(): string } };
    const files = (await vscode.workspace.fs.readDirectory(vscode.Uri.file(services.trajectoryDirectory()))).map(([name]) => name).filter((n) => n.endsWith('.rlm.jsonl'));
    assert.ok(files.length > 0, 'the runs above were recorded');
    const uri = vscode.Uri.joinPath(vscode.Uri.file(services.trajectoryDirectory()), files[0] ?? '');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.commands.executeCommand('rlm.openTrajectory', uri);
    await waitFor('the trajectory tab', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      // Opened by the command, a recorded run is a view titled by its question (a webview panel), not the file's editor.
      return input instanceof vscode.TabInputWebview && input.viewType.endsWith('rlm.trajectoryLive');
    }, 30_000);
  });
});
