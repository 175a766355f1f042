// Issue 16, item 4: cost in front, and honest. A model on this machine costs "local (no charge)"; a
// model without a known price reads "price unknown" with its tokens and a "Set a price…" that writes
// rlm.prices; never "$0.00" for either. The status bar, the progress notification, the chat and the
// trajectory view show the same figures at the same moment (one reducer, one tick).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { askInChat, chatEntry, openChat, statusBarText, waitForLiveLine } from '../../harness/chatDriver';
import { gate, type Gate } from '../../harness/gate';
import { openWorkbench } from '../../harness/openWorkbench';

/** Turn 1 makes one sub-call; turn 2 waits until `answer` opens (every surface read mid-run), then answers. */
function respond(answer: Gate) {
  return async (request: FakeModelRequest): Promise<FakeResponse> => {
    const last = request.messages.at(-1)?.content ?? '';
    if (last.startsWith('Name one colour')) return 'blue';
    const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
    if (turn === 1) return 'I will ask the sub model.\n```repl\ncolour = llm_query("Name one colour, one word.")\nprint(colour)\n```';
    await answer.opened;
    return 'FINAL(**blue**, said the sub model)';
  };
}

/** A model server whose last turn waits for `answer()`; closed (and the gate opened) after the test. */
async function startServer(t: { after(fn: () => unknown): void }): Promise<{ baseUrl: string; answer(): void }> {
  const answer = gate();
  const server = await startFakeOpenAIServer({ respond: respond(answer) });
  t.after(() => {
    answer.open();
    return server.close();
  });
  return { baseUrl: server.baseUrl, answer: answer.open };
}

/** "turn 2 · 1 sub-call · 1.9k tokens · local (no charge)" out of a longer line. */
function figures(text: string): string {
  const match = /turn \d+ · \d+ sub-calls? · [\d.]+k? tokens · [^·\n]+?(?=\s*$|\s*·\s*[a-z]|\s*\(\+|\n)/.exec(text);
  return match?.[0].trim() ?? `(no figures in "${text}")`;
}

test('a local server costs "local (no charge)", and every surface shows the same figures at once', { timeout: 300_000 }, async (t) => {
  const server = await startServer(t);
  const { workbench } = await openWorkbench(t, {
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': server.baseUrl, 'rlm.root.model': 'llama-local', 'rlm.confirmBeforeSending': false },
  });
  const chat = await openChat(workbench);
  await askInChat(workbench, chat, 'What colour does the sub model name?');
  await waitForLiveLine(chat, 0, /turn 2 · 1 sub-call/);
  await chatEntry(chat, 0).locator('[data-testid="view-trajectory"]').click();
  // A live view that never shows its figures is kept as a picture, to see what it showed instead.
  const view = await workbench.getWebviewFrame('[data-testid="live-figures"]', 30_000).catch(async (error: unknown) => {
    await workbench.screenshot('live-view-without-figures');
    throw error;
  });
  // Turn 2 waits for the model until all three are read: the figures are still meanwhile.
  await workbench.page.waitForTimeout(600);
  const fromChat = figures(await chatEntry(chat, 0).locator('[data-testid="live-line"]').innerText());
  const fromStatusBar = figures(await statusBarText(workbench));
  const fromView = figures(await view.locator('[data-testid="live-figures"]').innerText());
  assert.match(fromChat, /^turn 2 · 1 sub-call · [\d.]+k? tokens · local \(no charge\)$/);
  assert.equal(fromStatusBar, fromChat, 'the status bar and the chat agree');
  assert.equal(fromView, fromChat, 'the view and the chat agree');
  assert.match(await view.locator('[data-testid="thinking"]').innerText(), /The model is thinking/);
  await workbench.screenshot('local-same-figures-everywhere');
  server.answer();

  await view.locator('[data-testid="outcome"]').filter({ hasText: 'Answered' }).waitFor({ timeout: 60_000 });
  assert.equal(await view.locator('[data-testid="cost"]').innerText(), 'local (no charge)');
  assert.doesNotMatch(await view.locator('#run-header').innerText(), /\$0\.00/);
  await workbench.screenshot('local-finished');
});

test('an unknown price reads "price unknown" with tokens, and Set a price… saves rlm.prices', { timeout: 300_000 }, async (t) => {
  const server = await startServer(t);
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-cost-ws-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  writeFileSync(join(workspace, 'notes.txt'), 'red green blue\n');
  // The same server reached through an address that is not "this machine" to RLM, like a hosted API.
  const hosted = server.baseUrl.replace('127.0.0.1', '[::ffff:127.0.0.1]');
  const { workbench } = await openWorkbench(t, {
    workspace,
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': hosted, 'rlm.root.model': 'mystery-model-7b', 'rlm.confirmBeforeSending': false },
  });
  // A hosted endpoint needs a key: set one as a person would.
  await workbench.runCommandFromPalette('RLM: Set API key...');
  await workbench.page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: 'ffff' }).first().click();
  const keyBox = workbench.page.locator('.quick-input-widget input[type="password"]');
  await keyBox.waitFor({ state: 'visible', timeout: 10_000 });
  await keyBox.fill('sk-test-not-a-real-key-123456');
  await keyBox.press('Enter');
  await workbench.waitForNotification(/stored in secret storage/);

  await workbench.openFile('notes.txt');
  await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
  const input = workbench.page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill('What colour does the sub model name?');
  await workbench.page.keyboard.press('Enter');
  const view = await workbench.getWebviewFrame('[data-testid="live-figures"]', 90_000);
  await view.locator('[data-testid="live-figures"]').filter({ hasText: 'turn 2' }).waitFor({ timeout: 60_000 });
  await workbench.page.waitForTimeout(600);
  const toast = await workbench.waitForNotification(/turn 2/);
  const fromNotification = figures(await toast.innerText());
  const fromStatusBar = figures(await statusBarText(workbench));
  const fromView = figures(await view.locator('[data-testid="live-figures"]').innerText());
  assert.match(fromView, /^turn 2 · 1 sub-call · [\d.]+k? tokens · price unknown$/);
  assert.equal(fromNotification, fromView, 'the progress notification and the view agree');
  assert.equal(fromStatusBar, fromView, 'the status bar and the view agree');
  await workbench.screenshot('unknown-same-figures-everywhere');
  server.answer();

  await view.locator('[data-testid="outcome"]').filter({ hasText: 'Answered' }).waitFor({ timeout: 60_000 });
  assert.equal(await view.locator('[data-testid="cost"]').innerText(), 'price unknown');
  assert.match(await view.locator('.stats').innerText(), /TOKENS\s+[\d.]+k? in · \d+ out/i, 'the tokens are there to price');
  const end = await workbench.waitForNotification(/blue, said the sub model/);
  assert.doesNotMatch(await end.innerText(), /\*\*/, 'the notification shows the answer as plain text');
  await workbench.screenshot('unknown-finished');

  await view.locator('[data-testid="set-price"]').click();
  const priceBox = workbench.page.locator('.quick-input-widget input');
  await priceBox.waitFor({ state: 'visible', timeout: 10_000 });
  assert.match(await workbench.page.locator('.quick-input-widget').innerText(), /Price of mystery-model-7b/);
  await priceBox.fill('0.15, 0.60');
  await workbench.screenshot('set-a-price');
  await priceBox.press('Enter');
  await workbench.waitForNotification(/mystery-model-7b now costs \$0\.15 per million input tokens and \$0\.6 per million output tokens/);
  await workbench.screenshot('price-saved');
});
