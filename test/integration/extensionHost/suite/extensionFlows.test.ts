// The extension's own flows inside VS Code: exact command titles, secrets, workspace gathering with
// every exclude source, refusals, and a full "Ask RLM about this file" run against a fake model
// server, ending with the answer, a trajectory file on disk and the run in the history.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../../src/eval/fakeServers/fakeServerTypes';
import type { RlmExtensionApi } from '../../../../src/vscode/extension';
import type { ActiveRun } from '../../../../src/vscode/run/activeRun';
import { gatherWorkspace } from '../../../../src/vscode/context/gatherWorkspace';
import { fileContext } from '../../../../src/vscode/context/fileTarget';
import { readSettings } from '../../../../src/vscode/settings/readSettings';
import { listHistory } from '../../../../src/vscode/history/historyIndex';
import { activatedExtension, contributedCommands } from './suiteHelpers';

const ISSUE_TITLES: Record<string, string> = {
  'rlm.askAboutFile': 'Ask RLM about this file',
  'rlm.askAboutWorkspace': 'Ask about the workspace',
  'rlm.askAboutFolder': 'Ask about folder...',
  'rlm.openTrajectory': 'Open trajectory...',
  'rlm.exportTrajectory': 'Export trajectory...',
  'rlm.stop': 'Stop',
  'rlm.configureModels': 'Configure models...',
  'rlm.setApiKey': 'Set API key...',
  'rlm.clearApiKeys': 'Clear API keys',
  'rlm.showLog': 'Show log',
};

async function api(): Promise<RlmExtensionApi> {
  return (await activatedExtension()).exports as RlmExtensionApi;
}

function folder(): vscode.WorkspaceFolder {
  const f = vscode.workspace.workspaceFolders?.[0];
  if (!f) throw new Error('no workspace folder');
  return f;
}

async function write(rel: string, content: string | Uint8Array): Promise<vscode.Uri> {
  const uri = vscode.Uri.joinPath(folder().uri, rel);
  await vscode.workspace.fs.writeFile(uri, typeof content === 'string' ? new TextEncoder().encode(content) : content);
  return uri;
}

const settingsToReset = ['root.provider', 'root.baseUrl', 'root.model', 'exclude', 'maxFileSizeKb', 'trajectoriesInWorkspace', 'confirmBeforeSending'];

async function setRlm(values: Record<string, unknown>): Promise<void> {
  const config = vscode.workspace.getConfiguration('rlm');
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
}

describe('RLM commands, settings and runs', function () {
  this.timeout(180_000);
  let server: FakeModelServer | undefined;

  after(async () => {
    const config = vscode.workspace.getConfiguration('rlm');
    for (const key of settingsToReset) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    await server?.close();
  });

  it('contributes every command of the issue with its exact title', () => {
    const titles = Object.fromEntries(contributedCommands().map((c) => [c.command, c.title]));
    for (const [id, title] of Object.entries(ISSUE_TITLES)) assert.equal(titles[id], title, id);
  });

  it('keeps API keys in SecretStorage per provider and endpoint, and clears them', async () => {
    const { services } = await api();
    await services.keys.set('openai', 'http://127.0.0.1:1/v1', 'sk-ext-host-test');
    assert.equal(await services.keys.get('openai', 'http://127.0.0.1:1/v1/'), 'sk-ext-host-test');
    assert.equal(await services.keys.get('anthropic', 'http://127.0.0.1:1/v1'), undefined);
    assert.ok((await services.keys.clearAll()) >= 1);
    assert.equal(await services.keys.get('openai', 'http://127.0.0.1:1/v1'), undefined);
    const config = vscode.workspace.getConfiguration('rlm');
    assert.ok(!JSON.stringify(config).includes('sk-ext-host-test'), 'keys never reach settings');
  });

  it('gathers a folder honouring .gitignore, rlm.exclude, binaries, the size limit and unsaved edits', async () => {
    await write('gather/.gitignore', 'ignored/\n');
    await write('gather/ignored/a.txt', 'ignored by git');
    await write('gather/keep.ts', 'export const onDisk = 1;\n');
    await write('gather/notes.tmp', 'excluded by rlm.exclude');
    await write('gather/blob.dat', new Uint8Array([1, 2, 0, 3]));
    await write('gather/image.png', 'not really a png');
    await write('gather/big.txt', 'x'.repeat(3000));
    await setRlm({ exclude: ['**/*.tmp'], maxFileSizeKb: 2 });
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder().uri, 'gather/keep.ts'));
    const editor = await vscode.window.showTextDocument(doc);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// unsaved edit\n'));
    const reports: number[] = [];
    const source = new vscode.CancellationTokenSource();
    const outcome = await gatherWorkspace([{ folder: folder(), subPath: 'gather' }], readSettings(), { report: (c) => reports.push(c.included) }, source.token);
    const paths = outcome.files.map((f) => f.path).sort();
    assert.deepEqual(paths, ['gather/.gitignore', 'gather/keep.ts']);
    const keep = outcome.files.find((f) => f.path === 'gather/keep.ts');
    assert.match(typeof keep?.content === 'string' ? keep.content : '', /^\/\/ unsaved edit/);
    const reasons = Object.fromEntries(outcome.target.skipped.map((s) => [s.path, s.reason]));
    assert.deepEqual(reasons, { 'gather/big.txt': 'too-large', 'gather/blob.dat': 'binary', 'gather/image.png': 'binary' });
    assert.equal(outcome.ignoredByGitignore, 1);
    assert.ok(reports.length > 0, 'progress was reported');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  it('gathers a folder without following links out of it or into loops, never opening a FIFO', async () => {
    const base = vscode.Uri.joinPath(folder().uri, 'links').fsPath;
    mkdirSync(join(base, 'real'), { recursive: true });
    writeFileSync(join(base, 'real/kept.txt'), 'kept');
    const outside = mkdtempSync(join(tmpdir(), 'rlm-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'SECRET OUTSIDE THE WORKSPACE');
    symlinkSync(join(outside, 'secret.txt'), join(base, 'leak.txt'));
    symlinkSync(outside, join(base, 'leakdir'));
    symlinkSync('real', join(base, 'alias'));
    symlinkSync('..', join(base, 'real/up'));
    execFileSync('mkfifo', [join(base, 'pipe.txt')]);
    const source = new vscode.CancellationTokenSource();
    const outcome = await gatherWorkspace([{ folder: folder(), subPath: 'links' }], readSettings(), { report: () => undefined }, source.token);
    assert.deepEqual(outcome.files.map((f) => f.path), ['links/real/kept.txt']);
    const skipped = outcome.target.skipped.map((s) => `${s.path}: ${s.reason}`).sort();
    // VS Code's file search never lists a FIFO (it is not opened, so nothing blocks); "Ask about this file" refuses one.
    for (const expected of ['links/leak.txt: link-outside', 'links/leakdir/secret.txt: link-outside', 'links/alias/kept.txt: link']) {
      assert.ok(skipped.includes(expected), `${expected} missing from ${skipped.join('; ')}`);
    }
    assert.ok(!outcome.files.some((f) => String(f.content).includes('SECRET')), 'nothing outside the workspace was read');
    await assert.rejects(fileContext(vscode.Uri.file(join(base, 'pipe.txt')), readSettings()), /not a regular file/);
  });

  it('refuses a binary or over-size file with a sentence that says why', async () => {
    const settings = readSettings();
    const bin = await write('refuse/data.bin', new Uint8Array([0, 1, 2]));
    await assert.rejects(fileContext(bin, settings), /binary/);
    const nul = await write('refuse/weird.txt', new Uint8Array([65, 0, 66]));
    await assert.rejects(fileContext(nul, settings), /NUL bytes/);
    const big = await write('refuse/huge.log', 'y'.repeat(2048));
    await assert.rejects(fileContext(big, { ...settings, contextLimitBytes: 1024 }), /over the context limit/);
  });

  it('answers "Ask RLM about this file" end to end with a fake model, records the run and lists it in the history', async () => {
    server = await startFakeOpenAIServer({
      respond: (request) => {
        const last = request.messages.at(-1)?.content ?? '';
        if (/single word OK/.test(last)) return 'OK';
        if (request.index > 0) return 'The count is printed above.\nFINAL_VAR(result)';
        return '```repl\nresult = f"{len(context.splitlines())} lines"\nprint(result)\n```';
      },
    });
    await setRlm({ 'root.provider': 'openai', 'root.baseUrl': server.baseUrl, 'root.model': 'fake-model', trajectoriesInWorkspace: true });
    const target = await write('ask/three.txt', 'one\ntwo\nthree');
    const run = (await vscode.commands.executeCommand('rlm.askAboutFile', target, { question: 'How many lines?' })) as ActiveRun | undefined;
    assert.ok(run, 'the command started a run');
    const result = await run.result;
    assert.equal(result.status, 'completed', JSON.stringify(result.error));
    assert.equal(result.answer, '3 lines');
    assert.ok(run.trajectoryPath && existsSync(run.trajectoryPath), `trajectory file at ${run.trajectoryPath}`);
    assert.ok(run.trajectoryPath.startsWith(vscode.Uri.joinPath(folder().uri, '.rlm', 'runs').fsPath));
    const { services } = await api();
    const history = await listHistory(services.trajectoryDirectory());
    assert.ok(history.some((h) => h.runId === run.runId && h.question === 'How many lines?' && h.status === 'completed'));
    const requests = server.completionRequests.map((r) => r.rawBody).join('\n');
    assert.ok(!requests.includes('one\\ntwo\\nthree'), 'the file content never reaches the root model');
    // The REPL the extension host started was probed, layer by layer, inside this VS Code.
    const started = readFileSync(run.trajectoryPath, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type?: string; protections?: { version: number; layers: Array<{ id: string; on: boolean; probes: unknown[] }> } }).find((r) => r.type === 'run.started');
    const layers = started?.protections?.layers ?? [];
    assert.deepEqual(layers.map((l) => l.id), ['python', 'runtime', 'os', 'process']);
    for (const layer of layers) assert.ok(layer.probes.length > 0, `layer ${layer.id} was probed`);
    assert.ok(layers.filter((l) => l.id !== 'os').every((l) => l.on), `layers 1, 2 and 4 hold in VS Code: ${JSON.stringify(layers.map((l) => [l.id, l.on]))}`);
  });
});
