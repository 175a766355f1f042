// VS Code language models through the real API: a test-only extension (fakeLanguageModelExtension/)
// registers a fake model with 1.100's proposed lm.registerChatModelProvider; RLM then runs whole runs
// on it, from "Ask RLM about this file" with rlm.root.provider "vscode", and from @rlm in the chat
// (submitted with workbench.action.chat.open), with no model configured so the chat's model is used.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ActiveRun } from '../../../../src/vscode/run/activeRun';
import { listHistory } from '../../../../src/vscode/history/historyIndex';
import { fakeRequests, folderUri, records, rlmApi as api, setRlm, waitFor } from './suiteHelpers';

describe('VS Code language models (a fake provider registered through the LM API)', function () {
  this.timeout(240_000);

  after(async () => {
    await setRlm({ 'root.provider': undefined, 'root.model': undefined, 'root.baseUrl': undefined, trajectoriesInWorkspace: undefined });
  });

  it('sees the fake model through vscode.lm.selectChatModels', async () => {
    const models = await waitFor('the fake model', async () => {
      const found = await vscode.lm.selectChatModels({ vendor: 'rlm-test' });
      return found.length > 0 ? found : undefined;
    });
    assert.equal(models[0]?.family, 'rlm-test-family');
    assert.equal(await models[0]?.countTokens('three short words'), 3);
  });

  it('runs "Ask RLM about this file" on a VS Code model: cells, a sub-call, the answer, included in the plan', async () => {
    await setRlm({ 'root.provider': 'vscode', 'root.model': 'rlm-test-family', 'root.baseUrl': '', trajectoriesInWorkspace: true });
    const target = vscode.Uri.joinPath(folderUri(), 'lm', 'four.txt');
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('a\nb\nc\nd'));
    // The agent tool's suite runs the same scripted sub-call on this model earlier; its cached answer
    // would be reused (rightly), so the cache is cleared to see this run's sub-call reach the model.
    await vscode.commands.executeCommand('rlm.clearSubCallCache');
    const before = (await fakeRequests()).length;
    const run = (await vscode.commands.executeCommand('rlm.askAboutFile', target, { question: 'How many lines?' })) as ActiveRun | undefined;
    assert.ok(run, 'the command started a run');
    const result = await run.result;
    assert.equal(result.status, 'completed', JSON.stringify(result.error));
    assert.equal(result.answer, '4 lines');
    assert.equal(result.totals.includedInPlan, true);
    assert.equal(result.totals.costUsd, 0);
    assert.equal(result.totals.subCalls, 1);
    const sent = (await fakeRequests()).slice(before);
    assert.ok(sent.some((r) => r.messages.length === 1 && r.messages[0]?.text === 'SUBCALL: say hello'), 'the sub-call went to the VS Code model');
    assert.ok(!sent.some((r) => r.messages.some((m) => m.text.includes('a\nb\nc\nd'))), 'the file content never reaches the model');
    assert.ok(run.trajectoryPath);
    const started = records(run.trajectoryPath).find((r) => r.type === 'run.started') as { config?: { root?: { provider?: string; model?: string } } } | undefined;
    assert.deepEqual({ provider: started?.config?.root?.provider, model: started?.config?.root?.model }, { provider: 'vscode', model: 'rlm-test-model' });
    const cell = records(run.trajectoryPath).find((r) => r.type === 'cell.finished') as { stdout?: string } | undefined;
    assert.match(cell?.stdout ?? '', /4 lines hello from the fake model/);
  });

  it('keeps an @rlm question about a file that is still running and answers it once that run ends', async () => {
    await setRlm({ 'root.provider': 'vscode', 'root.model': 'rlm-test-family', 'root.baseUrl': '', trajectoriesInWorkspace: true });
    const { services } = await api();
    const target = vscode.Uri.joinPath(folderUri(), 'lm', 'six.txt');
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('1\n2\n3\n4\n5\n6'));
    await vscode.window.showTextDocument(target);
    const first = (await vscode.commands.executeCommand('rlm.askAboutFile', target, { question: `Count them slowly ${Date.now()}` })) as ActiveRun | undefined;
    assert.ok(first?.trajectoryPath, 'the slow run started');
    // The run's live view may have taken the focus: /file means the file again.
    await vscode.window.showTextDocument(target);
    const question = `Queued behind it ${Date.now()}`;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@rlm /file ${question}` });
    const firstResult = await first.result;
    assert.equal(firstResult.status, 'completed', JSON.stringify(firstResult.error));
    const entry = await waitFor('the queued @rlm run in the history', async () => {
      const history = await listHistory(services.trajectoryDirectory());
      return history.find((h) => h.question === question && h.status !== 'incomplete');
    });
    assert.equal(entry.status, 'completed', 'the question was kept, not refused as busy');
    const firstEnded = records(first.trajectoryPath).find((r) => r.type === 'run.finished') as { ts?: number } | undefined;
    const queuedStarted = records(entry.path).find((r) => r.type === 'run.started') as { ts?: number } | undefined;
    assert.ok((queuedStarted?.ts ?? 0) >= (firstEnded?.ts ?? Infinity), 'the queued question started after the running one ended');
  });

  it('answers @rlm /file in the chat with the chat model, records the run, and continues the thread on a follow-up', async () => {
    await setRlm({ 'root.provider': undefined, 'root.model': undefined, 'root.baseUrl': undefined, trajectoriesInWorkspace: true });
    const { services } = await api();
    const target = vscode.Uri.joinPath(folderUri(), 'lm', 'five.txt');
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode('1\n2\n3\n4\n5'));
    await vscode.window.showTextDocument(target);
    const question = `How many lines are there? ${Date.now()}`;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@rlm /file ${question}` });
    const entry = await waitFor('the @rlm run in the history', async () => {
      const history = await listHistory(services.trajectoryDirectory());
      return history.find((h) => h.question === question && h.status !== 'incomplete');
    });
    assert.equal(entry.status, 'completed');
    const recorded = records(entry.path);
    const finished = recorded.find((r) => r.type === 'run.finished') as { answer?: string; totals?: { includedInPlan?: boolean } } | undefined;
    assert.equal(finished?.answer, '5 lines');
    assert.equal(finished?.totals?.includedInPlan, true);
    const started = recorded.find((r) => r.type === 'run.started') as { config?: { root?: { provider?: string } } } | undefined;
    assert.equal(started?.config?.root?.provider, 'vscode', 'with no model configured, the model picked in the chat ran the root');

    const followUp = `And how many words? ${Date.now()}`;
    const before = (await fakeRequests()).length;
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@rlm /file ${followUp}` });
    await waitFor('the follow-up run', async () => {
      const history = await listHistory(services.trajectoryDirectory());
      return history.find((h) => h.question === followUp && h.status !== 'incomplete');
    });
    const firstRootRequest = (await fakeRequests()).slice(before).find((r) => r.messages.some((m) => m.text.includes(followUp)));
    assert.ok(firstRootRequest, 'the follow-up reached the model');
    assert.ok(
      firstRootRequest.messages.some((m) => m.text.includes(question)),
      'the follow-up carries the earlier question of the same chat thread',
    );
  });
});
