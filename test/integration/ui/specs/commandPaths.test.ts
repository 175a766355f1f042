// The commands a person runs from the palette, each walked to what it changes, in one workbench:
// Configure models (the setup screen, a custom endpoint typed in) writes the settings and tests the
// connection; Set API key stores a key the next request carries; Clear API keys (confirmed in the
// modal) removes it; Show log shows what happened; "Selection only" asks about the selected lines, and
// the end notification's Copy answer and Open trajectory do what they say; the status bar item and the
// chat view's Stop button stop a running question; Export trajectory and Open trajectory work through
// the file dialogs; a run deleted from the history leaves the disk. A step that needs what an earlier
// one made (a configured model, a stored key, a recorded run) makes it itself when that step failed, so
// one failure is reported once instead of cascading.
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

const COUNT_QUESTION = 'Count them. CODE: result = f"{len(context.splitlines())} lines in all"';

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

async function closeAllEditors(workbench: Workbench): Promise<void> {
  await workbench.runCommandFromPalette('View: Close All Editors');
  await workbench.page.waitForFunction(() => document.querySelectorAll('.part.editor .tabs-container .tab').length === 0, undefined, { timeout: 10_000 });
}

/** Asks about lines.txt, freshly opened (so with no selection, the whole file). */
async function askAboutLinesFile(workbench: Workbench, question: string): Promise<void> {
  await closeAllEditors(workbench);
  await workbench.page.waitForTimeout(500);
  // Quick Open can lose its keystrokes while a closing webview still holds focus: try once more.
  await workbench.openFile('lines.txt').catch(async () => {
    await workbench.page.keyboard.press('Escape');
    await workbench.openFile('lines.txt');
  });
  await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
  await answerInput(workbench, /^Ask RLM about lines\.txt/, question);
}

/**
 * The web workbench's file dialog is a quick input holding a path. It opens where the command asks
 * (the runs folder) once it has listed it, and would overwrite a path typed earlier: wait, then type
 * the file's path.
 */
async function pickInOpenDialog(workbench: Workbench, dir: string, file: string): Promise<void> {
  const folder = `${dir}/`;
  await workbench.page.waitForFunction((expected) => (document.querySelector('.quick-input-widget .quick-input-box input') as HTMLInputElement | null)?.value === expected, folder, { timeout: 30_000 });
  await workbench.page.locator(ROWS).filter({ hasText: file }).first().waitFor({ state: 'visible', timeout: 30_000 });
  const input = workbench.page.locator(INPUT);
  await input.fill(join(dir, file));
  assert.equal(await input.inputValue(), join(dir, file));
}

async function setKeyFromPalette(workbench: Workbench, slot: string, key: string): Promise<void> {
  await workbench.runCommandFromPalette('RLM: Set API key...');
  await pickRow(workbench, slot);
  await answerInput(workbench, /API key for openai at/, key);
  await workbench.waitForNotification(/is stored in secret storage/);
}

/**
 * Runs "RLM: Test connection" and waits for its request to reach the fake server, then for its
 * outcome. A toast hides itself after some seconds and a busy machine can be slower than that, so the
 * request is the proof the command ran; a palette that swallowed the click is opened once more.
 */
async function testConnectionReaches(workbench: Workbench, requests: readonly unknown[]): Promise<void> {
  const before = requests.length;
  const arrived = async (ms: number): Promise<boolean> => {
    for (const end = Date.now() + ms; Date.now() < end; ) {
      if (requests.length > before) return true;
      await workbench.page.waitForTimeout(200);
    }
    return requests.length > before;
  };
  await workbench.runCommandFromPalette('RLM: Test connection');
  if (!(await arrived(20_000))) {
    await workbench.page.keyboard.press('Escape');
    await workbench.runCommandFromPalette('RLM: Test connection');
    assert.ok(await arrived(40_000), 'RLM: Test connection sent no request to the configured server');
  }
  const toasts = workbench.page.locator('.notifications-toasts .notification-toast, .notifications-center .notification-list-item');
  const outcome = toasts.filter({ hasText: /RLM: connected to|RLM: .*failed|could not/ }).first();
  await outcome.waitFor({ state: 'attached', timeout: 30_000 }).catch(async () => {
    await workbench.runCommandFromPalette('Notifications: Show Notifications');
    await outcome.waitFor({ state: 'attached', timeout: 10_000 });
  });
  assert.match(await outcome.innerText(), /RLM: connected to/);
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
  const settingsFile = join(codeServer.userDataDir, 'User', 'settings.json');
  const userSettings = (): Record<string, unknown> => JSON.parse(readFileSync(settingsFile, 'utf8')) as Record<string, unknown>;
  writeFileSync(join(codeServer.workspace, 'lines.txt'), 'alpha\nbeta\ngamma\ndelta\n');

  /** "Configure models...": the setup screen, the fake server typed in as a custom endpoint, saved and tested. */
  const configureThroughSetupScreen = async (screenshot: boolean): Promise<void> => {
    await workbench.runCommandFromPalette('RLM: Configure models...');
    const setup = await workbench.getWebviewFrame('[data-testid="root-endpoint"]', 60_000);
    await setup.locator('[data-testid="root-endpoint"]').selectOption({ label: 'Other OpenAI-compatible server' });
    await setup.locator('[data-testid="root-url"]').fill(server.baseUrl);
    await setup.locator('[data-testid="root-url"]').press('Tab');
    await setup.locator('[data-testid="root-list-status"]').filter({ hasText: '1 model listed by the server.' }).waitFor({ timeout: 30_000 });
    await setup.locator('[data-testid="root-model"]').fill('fake-model');
    // A custom endpoint may take a key; this one needs none, so the key field is left empty.
    assert.equal(await setup.locator('[data-testid="root-key"]').inputValue(), '');
    assert.match((await setup.locator('[data-testid="root-key"]').getAttribute('placeholder')) ?? '', /^Optional/);
    await setup.locator('[data-testid="save"]').click();
    await setup.locator('[data-testid="status"]').filter({ hasText: 'Saved: fake-model writes the code and answers sub-calls.' }).waitFor({ timeout: 30_000 });
    await setup.locator('[data-testid="root-result"]').filter({ hasText: /Connected to fake-model in \d+ ms/ }).waitFor({ timeout: 60_000 });
    if (screenshot) await workbench.screenshot('configured-and-connected');
  };
  /** Later steps need the model the Configure step saves: when that step failed, they configure it again themselves. */
  const ensureModelConfigured = async (): Promise<void> => {
    const settings = userSettings();
    if (settings['rlm.root.baseUrl'] === server.baseUrl && settings['rlm.root.model'] === 'fake-model') return;
    try {
      await configureThroughSetupScreen(false);
      await closeAllEditors(workbench);
    } catch (error) {
      throw new Error(`this step needs the fake server configured as the model, and configuring it through "RLM: Configure models..." failed: ${String(error)}`);
    }
  };
  let keyStored = false;
  /** A sub-test that leaves a screenshot of the page as it was when it failed. */
  const step = (name: string, body: () => Promise<void>): Promise<void> =>
    t.test(name, async () => {
      try {
        await body();
      } catch (error) {
        await workbench.screenshot(`FAILED-${name.slice(0, 40)}`).catch(() => undefined);
        throw error;
      }
    });

  /** Where this workspace's runs are recorded by default: the extension's storage for the workspace. */
  const runsDir = (): string | undefined => {
    const storage = join(codeServer.userDataDir, 'User', 'workspaceStorage');
    for (const name of existsSync(storage) ? readdirSync(storage) : []) {
      const dir = join(storage, name, 'rlm-tools.rlm-vscode', 'runs');
      if (existsSync(dir)) return dir;
    }
    return undefined;
  };
  const recordedRuns = (): string[] => {
    const dir = runsDir();
    return dir ? readdirSync(dir).filter((n) => n.endsWith('.rlm.jsonl')).sort() : [];
  };
  /** The recorded run whose question contains `marker`; asked here when the step that asks it failed. */
  const recordedRun = async (marker: string, question: string, answer: RegExp): Promise<{ dir: string; name: string }> => {
    const find = (): string | undefined => recordedRuns().find((name) => readFileSync(join(runsDir() ?? '', name), 'utf8').includes(marker));
    if (!find()) {
      await ensureModelConfigured();
      await dismissToasts(workbench);
      await askAboutLinesFile(workbench, question);
      await workbench.waitForNotification(answer, 180_000);
      await dismissToasts(workbench);
    }
    const name = find();
    const dir = runsDir();
    assert.ok(name && dir, `a run asking "${marker}" was recorded under the workspace storage`);
    return { dir, name };
  };

  await step('Configure models: a custom endpoint typed in is written to the settings and its connection tested', async () => {
    await configureThroughSetupScreen(true);
    const settings = userSettings();
    assert.equal(settings['rlm.root.provider'], 'openai');
    assert.equal(settings['rlm.root.baseUrl'], server.baseUrl);
    assert.equal(settings['rlm.root.model'], 'fake-model');
    assert.ok(server.completionRequests.some((r) => r.rawBody.includes('single word OK')), 'the connection test reached the server');
    await closeAllEditors(workbench);
    await dismissToasts(workbench);
  });

  await step('Set API key: the key typed in is carried by the next request', async () => {
    await ensureModelConfigured();
    await setKeyFromPalette(workbench, `openai at ${server.baseUrl}`, 'sk-typed-in-the-ui');
    keyStored = true;
    await testConnectionReaches(workbench, server.completionRequests);
    assert.equal(authorizationOfLastRequest(server.completionRequests), 'Bearer sk-typed-in-the-ui');
    assert.ok(!readFileSync(settingsFile, 'utf8').includes('sk-typed-in-the-ui'), 'the key never reaches settings');
    await dismissToasts(workbench);
  });

  await step('Clear API keys: confirmed in the modal, the key is gone from the next request', async () => {
    await ensureModelConfigured();
    if (!keyStored) {
      await setKeyFromPalette(workbench, `openai at ${server.baseUrl}`, 'sk-typed-in-the-ui');
      await dismissToasts(workbench);
    }
    await testConnectionReaches(workbench, server.completionRequests);
    assert.equal(authorizationOfLastRequest(server.completionRequests), 'Bearer sk-typed-in-the-ui', 'before Clear, the stored key is sent');
    await dismissToasts(workbench);
    await workbench.runCommandFromPalette('RLM: Clear API keys');
    await workbench.screenshot('clear-keys-modal');
    await clickModalButton(workbench, 'Delete');
    await workbench.waitForNotification(/RLM: deleted 1 API key\./);
    await testConnectionReaches(workbench, server.completionRequests);
    assert.notEqual(authorizationOfLastRequest(server.completionRequests), 'Bearer sk-typed-in-the-ui');
    await dismissToasts(workbench);
  });

  await step('Show log: the RLM output channel opens with what was done', async () => {
    await workbench.runCommandFromPalette('RLM: Show log');
    const output = page.locator('.part.panel .monaco-editor .view-lines');
    await output.filter({ hasText: 'RLM activated' }).waitFor({ state: 'visible', timeout: 30_000 });
    // The editor draws spaces as no-break spaces.
    const text = async (): Promise<string> => (await output.innerText()).replace(/\u00a0/g, ' ');
    for (let i = 0; i < 20 && !(await text()).includes('Cleared 1 API keys'); i++) await page.waitForTimeout(250);
    const shown = await text();
    assert.ok(shown.includes(`Root model set to openai fake-model at ${server.baseUrl}`), `the saved setup (Configure models) is logged with its server:\n${shown}`);
    assert.match(shown, /Sub-calls use the root model/);
    assert.ok(shown.includes(`API key stored for openai at ${server.baseUrl}`), `the stored key's slot (Set API key) is logged:\n${shown}`);
    assert.match(shown, /Cleared 1 API keys/, 'Clear API keys is logged');
    assert.ok(!shown.includes('sk-typed-in-the-ui'), 'the log never shows a key');
    await workbench.screenshot('log-shown');
  });

  await step('"Selection only" asks about the selected lines; Copy answer puts the whole answer on the clipboard', async () => {
    await ensureModelConfigured();
    await dismissToasts(workbench);
    await closeAllEditors(workbench);
    await workbench.openFile('lines.txt');
    // Select "beta" and "gamma": go to line 2, then extend to the end of line 3. Keys pressed before the
    // editor has focus select nothing, so the editor is clicked first and the selection is checked.
    const selected = page.locator('.part.statusbar .statusbar-item').filter({ hasText: /\(\d+ selected\)/ });
    for (let attempt = 0; attempt < 3 && !(await selected.count()); attempt++) {
      await page.locator('.part.editor .monaco-editor .view-lines').first().click();
      await page.keyboard.press('Control+G');
      await page.keyboard.type('2');
      await page.keyboard.press('Enter');
      await page.keyboard.press('Shift+ArrowDown');
      await page.keyboard.press('Shift+End');
      await selected.first().waitFor({ state: 'visible', timeout: 5000 }).catch(() => undefined);
    }
    assert.ok(await selected.count(), 'lines 2 and 3 are selected in the editor');
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

  await step('the end notification\'s Open trajectory opens the recorded run', async () => {
    await ensureModelConfigured();
    await dismissToasts(workbench);
    await askAboutLinesFile(workbench, COUNT_QUESTION);
    const toast = await workbench.waitForNotification(/RLM: 4 lines in all/, 180_000);
    // The live panel of the run shows it too: closed first, so what shows next is what the button opened.
    await closeAllEditors(workbench);
    await toast.getByRole('button', { name: 'Open trajectory' }).click();
    const run = recordedRuns().find((name) => readFileSync(join(runsDir() ?? '', name), 'utf8').includes('Count them.'));
    assert.ok(run, 'the "Count them." run was recorded');
    // Opened from the notification, the run's tab is titled by its question, not its file name.
    await page.locator(`.part.editor .tabs-container .tab.active[aria-label*="Count them."]`).waitFor({ state: 'visible', timeout: 30_000 });
    const view = await workbench.getWebviewFrame('section.cell', 60_000);
    await view.getByText('Count them.', { exact: false }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await view.getByText('4 lines in all', { exact: false }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await workbench.screenshot('trajectory-opened-from-notification');
  });

  await step('the status bar item shows a running question, and a click on it stops the run', async () => {
    await ensureModelConfigured();
    await dismissToasts(workbench);
    await askAboutLinesFile(workbench, 'SLOW question one');
    const item = page.locator('.part.statusbar .statusbar-item').filter({ hasText: 'RLM' }).filter({ has: page.locator('.codicon-sync') });
    await item.first().waitFor({ state: 'visible', timeout: 120_000 });
    await workbench.screenshot('status-bar-running');
    await item.first().click();
    await workbench.waitForNotification(/RLM: Stopped by you/, 60_000);
    await item.first().waitFor({ state: 'hidden', timeout: 10_000 });
  });

  await step('the chat view\'s Stop button shows only while a question runs, and stops it', async () => {
    await ensureModelConfigured();
    await dismissToasts(workbench);
    await workbench.runCommandFromPalette('RLM: Focus on Chat View');
    const stop = page.locator('.part.sidebar .title-actions .action-label[aria-label^="Stop"]');
    assert.equal(await stop.count(), 0, 'Stop shows while nothing runs');
    await askAboutLinesFile(workbench, 'SLOW question two');
    await stop.first().waitFor({ state: 'visible', timeout: 120_000 });
    await workbench.screenshot('view-title-stop');
    await stop.first().click();
    await workbench.waitForNotification(/RLM: Stopped by you/, 60_000);
    await stop.first().waitFor({ state: 'hidden', timeout: 10_000 });
  });

  await step('Export trajectory: a run picked from the recent runs by its question, as Markdown, where the save dialog proposes', async () => {
    await dismissToasts(workbench);
    const { name: run } = await recordedRun('Count them.', COUNT_QUESTION, /RLM: 4 lines in all/);
    await workbench.runCommandFromPalette('RLM: Export trajectory...');
    await page.locator(`${QUICK_INPUT} .quick-input-title`).filter({ hasText: 'RLM: Export which run?' }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.locator(INPUT).fill('Count them');
    await workbench.screenshot('export-pick-run');
    await pickRow(workbench, run);
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

  await step('Open trajectory: a run picked in the open dialog opens in the trajectory editor', async () => {
    await dismissToasts(workbench);
    const { dir, name: run } = await recordedRun('Which lines?', 'Which lines? CODE: result = "|".join(context.splitlines())', /RLM: alpha\|beta/);
    await closeAllEditors(workbench);
    await workbench.runCommandFromPalette('RLM: Open trajectory...');
    // The recent runs come first; Browse… opens the file dialog, in the runs folder.
    await page.locator(`${QUICK_INPUT} .quick-input-title`).filter({ hasText: 'RLM: Open which run?' }).waitFor({ state: 'visible', timeout: 30_000 });
    await pickRow(workbench, 'Browse…');
    await pickInOpenDialog(workbench, dir, run);
    await workbench.screenshot('open-dialog');
    await page.locator(INPUT).press('Enter');
    await page.locator(`.part.editor .tabs-container .tab.active[aria-label*="Which lines?"]`).waitFor({ state: 'visible', timeout: 30_000 });
    const view = await workbench.getWebviewFrame('section.cell', 60_000);
    await view.getByText('Which lines?', { exact: false }).first().waitFor({ state: 'visible', timeout: 30_000 });
    await workbench.screenshot('trajectory-opened-from-dialog');
  });

  await step('a run deleted from the history, once confirmed, leaves the list and the disk', async () => {
    await dismissToasts(workbench);
    const { dir } = await recordedRun('Count them.', COUNT_QUESTION, /RLM: 4 lines in all/);
    const before = recordedRuns();
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
    assert.equal(after.length, before.length - 1, `the file was removed from ${dir}`);
    await workbench.screenshot('history-after-delete');
  });
});
