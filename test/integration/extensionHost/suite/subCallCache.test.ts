// The sub-call cache inside VS Code: a second identical question sends no sub-call again, "Ask Again
// without Cache" sends it and refreshes the entry, "Clear Sub-call Cache" empties this workspace's
// folder, and rlm.subCallCache: false neither reads nor stores.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import * as vscode from 'vscode';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../../src/eval/fakeServers/fakeServerTypes';
import type { RlmExtensionApi } from '../../../../src/vscode/extension';
import type { ActiveRun } from '../../../../src/vscode/run/activeRun';
import { activatedExtension } from './suiteHelpers';

const SUB_PROMPT = 'Digest this text in one word:';

function entriesIn(dir: string): number {
  if (!existsSync(dir)) return 0;
  return readdirSync(dir).reduce((n, shard) => n + readdirSync(`${dir}/${shard}`).filter((f) => f.endsWith('.json')).length, 0);
}

describe('the sub-call cache in VS Code', function () {
  this.timeout(180_000);
  let server: FakeModelServer | undefined;
  let subAnswers = 0;
  const keys = ['root.provider', 'root.baseUrl', 'root.model', 'subCallCache', 'confirmBeforeSending'];

  after(async () => {
    const config = vscode.workspace.getConfiguration('rlm');
    for (const key of keys) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    await server?.close();
  });

  async function ask(command: string, ...args: unknown[]): Promise<string | undefined> {
    const run = (await vscode.commands.executeCommand(command, ...args)) as ActiveRun | undefined;
    assert.ok(run, `${command} started a run`);
    const result = await run.result;
    assert.equal(result.status, 'completed', JSON.stringify(result.error));
    return result.answer;
  }

  function subRequests(): number {
    return server?.completionRequests.filter((r) => r.parsed?.messages.at(-1)?.content.startsWith(SUB_PROMPT)).length ?? 0;
  }

  it('answers a repeated sub-call from the cache, refreshes it on request, clears it, and can be turned off', async () => {
    server = await startFakeOpenAIServer({
      respond: (request) => {
        const last = request.messages.at(-1)?.content ?? '';
        if (last.startsWith(SUB_PROMPT)) return `digest-${++subAnswers}`;
        if (request.messages.some((m) => /digest-\d+/.test(m.content))) return 'FINAL_VAR(result)';
        return '```repl\nresult = llm_query("' + SUB_PROMPT + ' " + context)\nprint(result)\n```';
      },
    });
    const config = vscode.workspace.getConfiguration('rlm');
    for (const [key, value] of Object.entries({ 'root.provider': 'openai', 'root.baseUrl': server.baseUrl, 'root.model': 'fake-cache-model', subCallCache: true }))
      await config.update(key, value, vscode.ConfigurationTarget.Global);
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const target = vscode.Uri.joinPath(folder.uri, 'cache/notes.txt');
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(`notes ${Date.now()}\n`));
    const { services } = (await activatedExtension()).exports as RlmExtensionApi;
    const dir = services.subCallCacheDir();
    await vscode.commands.executeCommand('rlm.clearSubCallCache');

    assert.equal(await ask('rlm.askAboutFile', target, { question: 'Digest?' }), 'digest-1');
    assert.equal(subRequests(), 1);
    assert.equal(entriesIn(dir), 1, `one answer stored under ${dir}`);

    assert.equal(await ask('rlm.askAboutFile', target, { question: 'Digest?' }), 'digest-1', 'the stored answer');
    assert.equal(subRequests(), 1, 'the identical sub-call was not sent again');

    assert.equal(await ask('rlm.askAgainWithoutCache'), 'digest-2', 'a fresh answer');
    assert.equal(subRequests(), 2);
    assert.equal(await ask('rlm.askAboutFile', target, { question: 'Digest?' }), 'digest-2', 'the fresh answer replaced the old one');
    assert.equal(subRequests(), 2);

    await vscode.commands.executeCommand('rlm.clearSubCallCache');
    assert.equal(entriesIn(dir), 0, 'cleared');

    await config.update('subCallCache', false, vscode.ConfigurationTarget.Global);
    assert.equal(await ask('rlm.askAboutFile', target, { question: 'Digest?' }), 'digest-3');
    assert.equal(await ask('rlm.askAboutFile', target, { question: 'Digest?' }), 'digest-4', 'off: sent every time');
    assert.equal(entriesIn(dir), 0, 'off: nothing stored');
  });
});
