// A folder over rlm.contextLimitMb inside VS Code: listed, not read, and bound lazily. The confirmation
// says so with the file count and total size; rlm.workspaceLimitGb refuses what is past it; a run
// finds a needle by search() (on the host, with the ripgrep VS Code ships) and reads the file it points
// to; nothing outside what was gathered is served (a link out, `..`, an absolute path, a file excluded
// by rlm.exclude or by .gitignore). The folder is generated here, small, with contextLimitMb lowered.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../../src/eval/fakeServers/fakeServerTypes';
import type { ActiveRun } from '../../../../src/vscode/run/activeRun';
import { folderScope, gatherWithConfirmation } from '../../../../src/vscode/commands/askCommands';
import { chatContextFor } from '../../../../src/vscode/chat/chatContext';
import { gatherWorkspace } from '../../../../src/vscode/context/gatherWorkspace';
import { vscodeRipgrepPath } from '../../../../src/vscode/context/vscodeRipgrep';
import { readSettings } from '../../../../src/vscode/settings/readSettings';
import { formatBytes } from '../../../../src/shared/text/format';
import { activatedExtension } from './suiteHelpers';

const DIRS = 30;
const PER_DIR = 20;
const FILE_TEXT = `${'export const handler = (request) => respond(request);\n'.repeat(40)}`;
const NEEDLE_PATH = 'lazyws/p17/f9.ts';
const PATTERN = String.raw`the launch code is ([A-Z]+-\d+)`;
const settingsToReset = ['root.provider', 'root.baseUrl', 'root.model', 'contextLimitMb', 'workspaceLimitGb', 'exclude', 'confirmBeforeSending', 'trajectoriesInWorkspace'];

function folder(): vscode.WorkspaceFolder {
  const f = vscode.workspace.workspaceFolders?.[0];
  if (!f) throw new Error('no workspace folder');
  return f;
}

async function setRlm(values: Record<string, unknown>): Promise<void> {
  const config = vscode.workspace.getConfiguration('rlm');
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
}

/** The model's two turns: search and probe the mapping's edges, then read the file the hit names. */
function respond(request: { index: number; messages: Array<{ role: string; content: string }> }): string {
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  if (turn === 0) {
    return [
      '```repl',
      `hs = search(r'${PATTERN}')`,
      "print('MODE', context_meta().get('mode'), len(context), sorted(h['path'] for h in hs))",
      "probes = [(k, k in context, context.get(k)) for k in ['../outside/secret.txt', '/etc/passwd', 'lazyws/leak.ts', 'lazyws/keys.secret', 'lazyws/build/out.ts', 'lazyws/../lazyws/p17/f9.ts']]",
      "print('PROBES', probes)",
      'try:',
      "    search('launch', paths=['lazyws/keys.secret'])",
      "    print('SERVED')",
      'except Exception as e:',
      "    print('REFUSED', type(e).__name__)",
      '```',
    ].join('\n');
  }
  return "```repl\nFINAL(context[hs[0]['path']].strip().split()[-1])\n```";
}

describe('a folder over rlm.contextLimitMb in VS Code', function () {
  this.timeout(240_000);
  let server: FakeModelServer | undefined;
  let outside: string;
  let base: string;

  before(async () => {
    await activatedExtension();
    base = vscode.Uri.joinPath(folder().uri, 'lazyws').fsPath;
    for (let d = 0; d < DIRS; d++) {
      mkdirSync(join(base, `p${d}`), { recursive: true });
      for (let f = 0; f < PER_DIR; f++) writeFileSync(join(base, `p${d}`, `f${f}.ts`), FILE_TEXT);
    }
    writeFileSync(join(base, NEEDLE_PATH.slice('lazyws/'.length)), `${FILE_TEXT}// the launch code is HALCYON-42\n`);
    // Each would be a second hit if it were served.
    writeFileSync(join(base, 'keys.secret'), 'the launch code is EXCLUDED-1\n');
    writeFileSync(join(base, '.gitignore'), 'build/\n');
    mkdirSync(join(base, 'build'));
    writeFileSync(join(base, 'build', 'out.ts'), 'the launch code is IGNORED-2\n');
    outside = mkdtempSync(join(tmpdir(), 'rlm-lazy-outside-'));
    writeFileSync(join(outside, 'secret.txt'), 'the launch code is OUTSIDE-3\n');
    symlinkSync(join(outside, 'secret.txt'), join(base, 'leak.ts'));
    // 601 files of about 2 KB: well over a 0.25 MB eager limit, well within a 1 GB listing limit.
    await setRlm({ contextLimitMb: 0.25, workspaceLimitGb: 1, exclude: ['**/*.secret'] });
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration('rlm');
    for (const key of settingsToReset) await config.update(key, undefined, vscode.ConfigurationTarget.Global);
    await server?.close();
    rmSync(base, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it('is listed, not read, and the confirmation says so with the files and their total size', async () => {
    const shown: Array<{ message: string; detail: string }> = [];
    const original = vscode.window.showInformationMessage;
    // The confirmation is a modal: answered here as a user clicking "Ask" would.
    (vscode.window as { showInformationMessage: unknown }).showInformationMessage = (message: string, options: { detail?: string }) => {
      shown.push({ message, detail: options?.detail ?? '' });
      return Promise.resolve('Ask');
    };
    let gathered: Awaited<ReturnType<typeof gatherWithConfirmation>>;
    try {
      const scope = folderScope(vscode.Uri.file(base));
      gathered = await gatherWithConfirmation([scope], scope.label, { ...readSettings(), confirmBeforeSending: true }, new AbortController().signal);
    } finally {
      (vscode.window as { showInformationMessage: unknown }).showInformationMessage = original;
    }
    assert.ok(gathered && gathered.source.kind === 'plan', `bound from a plan, not read: ${gathered?.source.kind}`);
    const plan = gathered.source.plan;
    assert.ok(plan.lazy, 'over the eager limit: lazy');
    const paths = plan.files.map((f) => f.path);
    assert.equal(paths.length, DIRS * PER_DIR + 1, 'the .gitignore and every module; not the excluded, ignored or linked-out files');
    for (const left of ['lazyws/keys.secret', 'lazyws/build/out.ts', 'lazyws/leak.ts']) assert.ok(!paths.includes(left), `${left} is not listed`);
    assert.ok(plan.target.skipped.some((s) => s.path === 'lazyws/leak.ts' && s.reason === 'link-outside'), JSON.stringify(plan.target.skipped));
    assert.equal(shown.length, 1, 'asked once');
    assert.equal(shown[0]!.message, `Ask about ${plan.files.length} files (${formatBytes(plan.totalBytes)}) in lazyws?`);
    assert.ok(plan.totalBytes > 1024 * 1024, `${plan.totalBytes} bytes`);
    assert.match(shown[0]!.detail, /Over rlm\.contextLimitMb \(256(\.0)? KB\): files are read only when the model uses them, and search runs in VS Code\./);
  });

  it('as a chat reference, is bound lazily on its own, and refused with a sentence beside other references', async () => {
    const settings = { ...readSettings(), confirmBeforeSending: false };
    const ref = (uri: vscode.Uri, id: string): vscode.ChatPromptReference => ({ id, value: uri }) as vscode.ChatPromptReference;
    const alone = await chatContextFor({ kind: 'references', question: 'where is the launch code?' }, [ref(vscode.Uri.file(base), 'vscode.folder')], settings);
    const gathered = await alone.gather(new AbortController().signal);
    assert.ok(gathered?.source.kind === 'plan' && gathered.source.plan.lazy, `bound lazily, not dropped: ${gathered?.source.kind}`);
    assert.equal(gathered.source.plan.files.length, DIRS * PER_DIR + 1);
    const mixed = await chatContextFor({ kind: 'references', question: 'where is the launch code?' }, [ref(vscode.Uri.file(join(base, 'p0', 'f0.ts')), 'vscode.file'), ref(vscode.Uri.file(base), 'vscode.folder')], settings);
    await assert.rejects(mixed.gather(new AbortController().signal), /holds more than the context limit \(rlm\.contextLimitMb\), so it is read lazily, and cannot be asked about together with other references\. Ask about the folder alone \(\/folder lazyws\)/);
  });

  it('is refused past rlm.workspaceLimitGb, with the size and the limit', async () => {
    await setRlm({ workspaceLimitGb: 0.001 });
    try {
      const source = new vscode.CancellationTokenSource();
      await assert.rejects(gatherWorkspace([folderScope(vscode.Uri.file(base))], readSettings(), { report: () => undefined }, source.token), /The input holds .*, over the [\d.]+ [KMG]?B limit/);
    } finally {
      await setRlm({ workspaceLimitGb: 1 });
    }
  });

  it('answers by search() on the host and reads only the files gathered', async () => {
    assert.ok(vscodeRipgrepPath(vscode.env.appRoot), `this VS Code ships ripgrep under ${vscode.env.appRoot}, which search() uses`);
    server = await startFakeOpenAIServer({ respond: (request) => (/single word OK/.test(request.messages.at(-1)?.content ?? '') ? 'OK' : respond(request)) });
    await setRlm({ 'root.provider': 'openai', 'root.baseUrl': server.baseUrl, 'root.model': 'fake-model', confirmBeforeSending: false, trajectoriesInWorkspace: true });
    const run = (await vscode.commands.executeCommand('rlm.askAboutFolder', vscode.Uri.file(base), { question: 'What is the launch code?' })) as ActiveRun | undefined;
    assert.ok(run, 'the command started a run');
    const result = await run.result;
    assert.equal(result.status, 'completed', JSON.stringify(result.error));
    assert.equal(result.answer, 'HALCYON-42');
    const root = server.completionRequests.find((r) => /launch code/.test(r.rawBody))?.rawBody ?? '';
    assert.match(root, /Mode: lazy/, 'the root was told the mapping is lazy');
    const records = readFileSync(run.trajectoryPath!, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const cells = records.filter((r) => r.type === 'cell.finished') as Array<{ stdout: string; contextReads?: { files: number; paths: string[]; searches: number } }>;
    assert.match(cells[0]!.stdout, new RegExp(String.raw`MODE lazy ${DIRS * PER_DIR + 1} \['${NEEDLE_PATH}'\]`), 'one hit: the excluded, ignored and linked-out copies are not searched');
    assert.match(cells[0]!.stdout, /PROBES \[\('\.\.\/outside\/secret\.txt', False, None\), \('\/etc\/passwd', False, None\), \('lazyws\/leak\.ts', False, None\), \('lazyws\/keys\.secret', False, None\), \('lazyws\/build\/out\.ts', False, None\), \('lazyws\/\.\.\/lazyws\/p17\/f9\.ts', False, None\)\]/);
    assert.match(cells[0]!.stdout, /REFUSED \w+/, 'a search naming a file not gathered is refused by the host');
    assert.equal(cells[0]!.contextReads?.files, 0, 'searching reads nothing into the REPL');
    assert.ok((cells[0]!.contextReads?.searches ?? 0) >= 1);
    assert.deepEqual(cells[1]!.contextReads?.paths, [NEEDLE_PATH], 'the one file read is recorded');
    const started = records.find((r) => r.type === 'run.started') as { context: { mode?: string; fileCount: number } } | undefined;
    assert.equal(started?.context.mode, 'lazy');
  });
});
