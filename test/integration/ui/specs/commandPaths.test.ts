// The commands a person runs from the palette, each walked to what it changes, in one workbench:
// Configure models (a custom endpoint, typed in) writes the settings and tests the connection; Set API
// key stores a key the next request carries; Clear API keys (confirmed in the modal) removes it; Show
// log shows what happened; "Selection only" asks about the selected lines, and the end notification's
// Copy answer and Open trajectory do what they say; the status bar item and the chat view's Stop button
// stop a running question; Export trajectory and Open trajectory work through the file dialogs; a run
// deleted from the history leaves the disk.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Locator } from 'playwright-core';
import { openWorkbench } from '../../harness/openWorkbench';
import type { Workbench } from '../../harness/workbench';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';

const QUICK_INPUT = '.quick-input-widget';
const ROWS = `${QUICK_INPUT} .quick-input-list .monaco-list-row`;
const INPUT = `${QUICK_INPUT} .quick-input-box input`;

/** Turn 1 runs the code after "CODE:" in the question, turn 2 answers with `result`; SLOW never answers in time. */
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

async function pickRow(workbench: Workbench, text: string | RegExp): Promise<void> {
  const row = workbench.page.locator(ROWS).filter({ hasText: text }).first();
  await row.waitFor({ state: 'visible', timeout: 30_000 });
  await row.click();
}

/** Types into the open input box (its title must match) and presses Enter. */
async function answerInput(workbench: Workbench, title: RegExp, value: string): Promise<void> {
  await workbench.page.locator(`${QUICK_INPUT} .quick-input-title`).filter({ hasText: title }).waitFor({ state: 'visible', timeout: 30_000 });
  const input = workbench.page.locator(INPUT);
  await input.fill(value);
  await input.press('Enter');
}

async function clickModalButton(workbench: Workbench, name: string): Promise<void> {
  const dialog = workbench.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 30_000 });
  await dialog.getByRole('button', { name, exact: true }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
}

async function dismissToasts(workbench: Workbench): Promise<void> {
  // A quick input left open by a failed step would swallow the palette's F1.
  await workbench.page.keyboard.press('Escape');
  await workbench.page.keyboard.press('Escape');
  await workbench.runCommandFromPalette('Notifications: Clear All Notifications');
}

/** Asks about lines.txt, freshly opened (so with no selection, the whole file). */
async function askAboutLinesFile(workbench: Workbench, question: string): Promise<void> {
  await workbench.runCommandFromPalette('View: Close All Editors');
  await workbench.page.waitForTimeout(500);
  // Quick Open can lose its keystrokes while a closing webview still holds focus: try once more.
  await workbench.openFile('lines.txt').catch(async () => {
    await workbench.page.keyboard.press('Escape');
    await workbench.openFile('lines.txt');
  });
  await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
  await answerInput(workbench, /^Ask RLM about lines\.txt/, question);
}

function authorizationOfLastRequest(requests: ReadonlyArray<{ headers: Record<string, string | string[] | undefined> }>): string | undefined {
  const header = requests.at(-1)?.headers.authorization;
  return Array.isArray(header) ? header[0] : header;
}

test('palette commands do what they say: models, keys, log, selection, end-of-run actions, Stop, history delete', { timeout: 600_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond });
  t.after(() => server.close());
  const { workbench, page, codeServer } = await openWorkbench(t, { userSettings: { 'rlm.confirmBeforeSending': false } });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
  const userSettings = (): Record<string, unknown> => JSON.parse(readFileSync(join(codeServer.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;

  await t.test('Configure models: a custom endpoint typed in is written to the settings and its connection tested', async () => {
    await workbench.runCommandFromPalette('RLM: Configure models...');
    await pickRow(workbench, 'Custom…');
    await pickRow(workbench, 'OpenAI-compatible');
    await answerInput(workbench, /Base URL of the server/, server.baseUrl);
    await answerInput(workbench, /Model at Custom/, 'fake-model');
    // A custom endpoint may take a key; this one needs none, so the prompt is left empty.
    await answerInput(workbench, /API key for openai at/, '');
    await workbench.waitForNotification(/RLM: connected to fake-model at/, 60_000);
    await workbench.screenshot('configured-and-connected');
    const settings = userSettings();
    assert.equal(settings['rlm.root.provider'], 'openai');
    assert.equal(settings['rlm.root.baseUrl'], server.baseUrl);
    assert.equal(settings['rlm.root.model'], 'fake-model');
    assert.ok(server.completionRequests.some((r) => r.rawBody.includes('single word OK')), 'the connection test reached the server');
    await dismissToasts(workbench);
  });

  await t.test('Set API key: the key typed in is carried by the next request', async () => {
    await workbench.runCommandFromPalette('RLM: Set API key...');
    await pickRow(workbench, `openai at ${server.baseUrl}`);
    await answerInput(workbench, /API key for openai at/, 'sk-typed-in-the-ui');
    await workbench.waitForNotification(/is stored in secret storage/);
    await workbench.runCommandFromPalette('RLM: Test connection');
    await workbench.waitForNotification(/RLM: connected to/, 60_000);
    assert.equal(authorizationOfLastRequest(server.completionRequests), 'Bearer sk-typed-in-the-ui');
    assert.ok(!readFileSync(join(codeServer.userDataDir, 'User', 'settings.json'), 'utf8').includes('sk-typed-in-the-ui'), 'the key never reaches settings');
    await dismissToasts(workbench);
  });

  await t.test('Clear API keys: confirmed in the modal, the key is gone from the next request', async () => {
    await workbench.runCommandFromPalette('RLM: Clear API keys');
    await workbench.screenshot('clear-keys-modal');
    await clickModalButton(workbench, 'Delete');
    await workbench.waitForNotification(/RLM: deleted 1 API key\./);
    await workbench.runCommandFromPalette('RLM: Test connection');
    await workbench.waitForNotification(/RLM: connected to/, 60_000);
    assert.notEqual(authorizationOfLastRequest(server.completionRequests), 'Bearer sk-typed-in-the-ui');
    await dismissToasts(workbench);
  });

  await t.test('Show log: the RLM output channel opens with what was done', async () => {
    await workbench.runCommandFromPalette('RLM: Show log');
    const output = page.locator('.part.panel .monaco-editor .view-lines');
    await output.filter({ hasText: 'Cleared 1 API keys' }).waitFor({ state: 'visible', timeout: 30_000 });
    // The editor draws spaces as no-break spaces.
    const text = (await output.innerText()).replace(/\u00a0/g, ' ');
    assert.match(text, /Root model set to openai fake-model/);
    assert.match(text, /API key stored for openai at/);
    assert.ok(!text.includes('sk-typed-in-the-ui'), 'the log never shows a key');
    await workbench.screenshot('log-shown');
  });

  await t.test('"Selection only" asks about the selected lines; Copy answer puts the whole answer on the clipboard', async () => {
    writeFileSync(join(codeServer.workspace, 'lines.txt'), 'alpha\nbeta\ngamma\ndelta\n');
    await workbench.openFile('lines.txt');
    // Select "beta" and "gamma": go to line 2, then extend to the end of line 3.
    await page.keyboard.press('Control+G');
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+ArrowDown');
    await page.keyboard.press('Shift+End');
    await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
    await pickRow(workbench, 'Selection only');
    await answerInput(workbench, /^Ask RLM about/, 'Which lines? CODE: result = "|".join(context.splitlines()) + "\\nsecond line of the answer"');
    const toast = await workbench.waitForNotification(/RLM: beta\|gamma/, 180_000);
    await workbench.screenshot('selection-answered');
    await toast.getByRole('button', { name: 'Copy answer' }).click();
    // The extension host writes the clipboard through the page a moment after the click.
    let clipboard = '';
    for (let i = 0; i < 50 && clipboard === ''; i++) {
      clipboard = await page.evaluate(() => navigator.clipboard.readText());
      if (clipboard === '') await page.waitForTimeout(200);
    }
    assert.equal(clipboard, 'beta|gamma\nsecond line of the answer');
  });

  await t.test('the end notification\'s Open trajectory opens the recorded run', async () => {
    await dismissToasts(workbench);
    await askAboutLinesFile(workbench, 'Count them. CODE: result = f"{len(context.splitlines())} lines in all"');
    const toast = await workbench.waitForNotification(/RLM: 4 lines in all/, 180_000);
    await toast.getByRole('button', { name: 'Open trajectory' }).click();
    const view = await workbench.getWebviewFrame('section.cell', 60_000);
    await view.getByText('Count them.', { exact: false }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await workbench.screenshot('trajectory-opened-from-notification');
  });

  await t.test('the status bar item shows a running question, and a click on it stops the run', async () => {
    await dismissToasts(workbench);
    await askAboutLinesFile(workbench, 'SLOW question one');
    const item = page.locator('.part.statusbar .statusbar-item').filter({ hasText: 'RLM' }).filter({ has: page.locator('.codicon-sync') });
    await item.first().waitFor({ state: 'visible', timeout: 120_000 });
    await workbench.screenshot('status-bar-running');
    await item.first().click();
    await workbench.waitForNotification(/RLM: the run was stopped/, 60_000);
    await item.first().waitFor({ state: 'hidden', timeout: 10_000 });
  });

  await t.test('the chat view\'s Stop button shows only while a question runs, and stops it', async () => {
    await dismissToasts(workbench);
    await workbench.runCommandFromPalette('RLM: Focus on Chat View');
    const stop = page.locator('.part.sidebar .title-actions .action-label[aria-label^="Stop"]');
    assert.equal(await stop.count(), 0, 'Stop shows while nothing runs');
    await askAboutLinesFile(workbench, 'SLOW question two');
    await stop.first().waitFor({ state: 'visible', timeout: 120_000 });
    await workbench.screenshot('view-title-stop');
    await stop.first().click();
    await workbench.waitForNotification(/RLM: the run was stopped/, 60_000);
    await stop.first().waitFor({ state: 'hidden', timeout: 10_000 });
  });

  /** Where this workspace's runs are recorded by default: the extension's storage for the workspace. */
  const runsDir = (): string => {
    const storage = join(codeServer.userDataDir, 'User', 'workspaceStorage');
    for (const name of existsSync(storage) ? readdirSync(storage) : []) {
      const dir = join(storage, name, 'rlm-tools.rlm-vscode', 'runs');
      if (existsSync(dir)) return dir;
    }
    throw new Error(`no runs folder under ${storage}`);
  };
  const recordedRuns = (): string[] => readdirSync(runsDir()).filter((n) => n.endsWith('.rlm.jsonl')).sort();

  await t.test('Export trajectory: a run picked in the open dialog, as Markdown, where the save dialog proposes', async () => {
    await dismissToasts(workbench);
    const run = recordedRuns().find((name) => readFileSync(join(runsDir(), name), 'utf8').includes('Count them.'));
    assert.ok(run, 'the "Count them." run was recorded');
    await workbench.runCommandFromPalette('RLM: Export trajectory...');
    // The web workbench's file dialog is a quick input holding a path: type the file's and accept.
    const input = page.locator(INPUT);
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill(join(runsDir(), run));
    await workbench.screenshot('export-open-dialog');
    await input.press('Enter');
    await pickRow(workbench, 'Markdown (.md)');
    const stem = run.replace(/\.rlm\.jsonl$/, '');
    await page.waitForFunction((expected) => (document.querySelector('.quick-input-widget .quick-input-box input') as HTMLInputElement | null)?.value.endsWith(expected) ?? false, `${stem}.md`, { timeout: 30_000 });
    await workbench.screenshot('export-save-dialog');
    await page.locator(INPUT).press('Enter');
    await workbench.waitForNotification(new RegExp(`RLM: exported to ${stem}\\.md`), 60_000);
    const markdown = readFileSync(join(codeServer.workspace, `${stem}.md`), 'utf8');
    assert.match(markdown, /Count them\./);
    assert.match(markdown, /4 lines in all/);
  });

  await t.test('Open trajectory: a run picked in the open dialog opens in the trajectory editor', async () => {
    await dismissToasts(workbench);
    await workbench.runCommandFromPalette('View: Close All Editors');
    const run = recordedRuns().find((name) => readFileSync(join(runsDir(), name), 'utf8').includes('Which lines?'));
    assert.ok(run, 'the "Which lines?" run was recorded');
    await workbench.runCommandFromPalette('RLM: Open trajectory...');
    const input = page.locator(INPUT);
    await input.waitFor({ state: 'visible', timeout: 30_000 });
    await input.fill(join(runsDir(), run));
    await input.press('Enter');
    const view = await workbench.getWebviewFrame('section.cell', 60_000);
    await view.getByText('Which lines?', { exact: false }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await workbench.screenshot('trajectory-opened-from-dialog');
  });

  await t.test('a run deleted from the history, once confirmed, leaves the list and the disk', async () => {
    await dismissToasts(workbench);
    const before = recordedRuns();
    assert.ok(before.length > 0, 'the runs above were recorded');
    await workbench.runCommandFromPalette('RLM: Focus on Chat View');
    const chat = await workbench.getWebviewFrame('[data-testid="tab-history"]', 60_000);
    await chat.locator('[data-testid="tab-history"]').click();
    const items: Locator = chat.locator('[data-testid="history-item"]');
    await items.nth(before.length - 1).waitFor({ state: 'visible', timeout: 30_000 });
    const count = await items.count();
    await chat.locator('[data-testid="history-delete"]').first().click();
    await clickModalButton(workbench, 'Delete');
    await items.nth(count - 2).waitFor({ state: 'visible', timeout: 10_000 });
    await page.waitForTimeout(500);
    assert.equal(await items.count(), count - 1);
    const after = recordedRuns();
    assert.equal(after.length, before.length - 1, 'the file was removed from disk');
    await workbench.screenshot('history-after-delete');
  });
});
