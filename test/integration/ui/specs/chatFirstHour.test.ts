// Issue 31, items 3-5, in VS Code's Chat view as a new user meets them: `@rlm /file` right after a run
// (the run's view is the active tab) still means the file on screen, and a typed `#file:retry.ts`
// (no completion) means that file; a failure prints its sentence once, with the button for its next
// step ("Set API key...", "Configure models..."), in the chat and in the sidebar chat; a Stop from the
// chat reads "Stopped by you" with what was done and Open trajectory.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Locator } from 'playwright-core';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { askInChat, chatEntry, openChat, waitForLiveLine } from '../../harness/chatDriver';
import { packageFakeLanguageModelExtension } from '../../harness/fakeLanguageModelVsix';
import { openWorkbench } from '../../harness/openWorkbench';
import type { Workbench } from '../../harness/workbench';

const FIRST_LINE = 'Retries an async operation with exponential backoff and full jitter.';
const QUICK_INPUT = '.quick-input-widget';

/** Reads the first line of `context`, then answers with it; "SLOW-STOP" keeps the first turn out for a minute. */
function respond(request: FakeModelRequest): FakeResponse {
  const conversation = request.messages.map((m) => m.content).join('\n');
  if (conversation.includes('SLOW-STOP')) return { text: '```repl\nprint(1)\n```', latencyMs: 60_000 };
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  if (turn === 0) return 'Reading the first line.\n```repl\nresult = context.splitlines()[0]\nprint(result)\n```';
  return 'FINAL_VAR(result)';
}

async function askInChatView(workbench: Workbench, text: string): Promise<Locator> {
  const input = workbench.page.locator('.interactive-input-part .monaco-editor').first();
  await input.waitFor({ state: 'visible', timeout: 60_000 });
  const before = await workbench.page.locator('.interactive-item-container.interactive-response').count();
  await input.click({ force: true });
  // The chat keeps "@rlm" in the box after an answer: replace it.
  await workbench.page.keyboard.press('Control+A');
  await workbench.page.keyboard.type(text);
  // A suggestion list may be open on "#file:": typed text is what is sent, not a completion.
  await workbench.page.keyboard.press('Escape');
  await workbench.page.keyboard.press('Enter');
  const response = workbench.page.locator('.interactive-item-container.interactive-response').nth(before);
  await response.waitFor({ state: 'visible', timeout: 60_000 });
  return response;
}

async function waitForText(response: Locator, text: RegExp, timeoutMs = 180_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let seen = '';
  while (Date.now() < deadline) {
    seen = await response.innerText().catch(() => '');
    if (text.test(seen)) return seen;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`the response never matched ${String(text)}; it shows: ${JSON.stringify(seen)}`);
}

test('@rlm /file after a run, a typed #file:NAME, and Stop in the Chat view', { timeout: 600_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond });
  t.after(() => server.close());
  const { workbench } = await openWorkbench(t, {
    extraVsix: [packageFakeLanguageModelExtension()],
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': server.baseUrl, 'rlm.root.model': 'fake-model', 'rlm.confirmBeforeSending': false },
  });
  await workbench.openFile('src/retry.ts');
  await workbench.runCommandFromPalette('Chat: Focus on Chat View');

  const first = await askInChatView(workbench, '@rlm /file What is the first line?');
  await first.getByRole('button', { name: 'Open trajectory' }).waitFor({ state: 'visible', timeout: 180_000 });
  assert.match(await first.innerText(), new RegExp(FIRST_LINE.replace(/\./g, '\\.')));
  assert.match(await first.innerText(), /2 turns · 0 sub-calls · [\d.k]+ tokens · local \(no charge\)/, 'the footer counts the turns the view counts, and a local run is not "$0.00"');

  // The run's view becomes the active tab: /file still means retry.ts.
  await first.getByRole('button', { name: 'Open trajectory' }).click();
  await workbench.page.waitForFunction(() => !/retry\.ts/.test(document.querySelector('.tabs-container .tab.active')?.textContent ?? 'retry.ts'), undefined, { timeout: 60_000 });
  // Back to the chat's box (the run's view stays the active editor tab), as a person clicks there.
  await workbench.runCommandFromPalette('Chat: Focus on Chat View');
  await workbench.screenshot('run-view-active-before-asking');
  const afterRun = await askInChatView(workbench, '@rlm /file What is the first line?');
  const afterText = await waitForText(afterRun, /Open trajectory|Open a file/);
  await afterRun.getByRole('button', { name: 'Open trajectory' }).waitFor({ state: 'visible', timeout: 180_000 });
  assert.doesNotMatch(afterText, /Open a file in the editor/);
  assert.match(await afterRun.innerText(), new RegExp(FIRST_LINE.replace(/\./g, '\\.')));
  await workbench.screenshot('file-after-run-with-view-active');

  // A typed #file:NAME, no completion: that file, not the workspace.
  const typed = await askInChatView(workbench, '@rlm What is the first line of #file:retry.ts');
  await typed.getByRole('button', { name: 'Open trajectory' }).waitFor({ state: 'visible', timeout: 180_000 });
  const typedText = await typed.innerText();
  assert.match(typedText, new RegExp(FIRST_LINE.replace(/\./g, '\\.')));
  assert.doesNotMatch(typedText, /the workspace/);
  // An unknown name is a sentence, once.
  const unknown = await askInChatView(workbench, '@rlm What is in #file:nothere.ts');
  const unknownText = await waitForText(unknown, /No file named "nothere\.ts"/);
  assert.equal(unknownText.match(/No file named/g)?.length, 1, `the sentence is printed once: ${unknownText}`);
  await workbench.screenshot('typed-file-reference');

  // Stop from the chat: said as a stop, with what was done and the trajectory.
  const slow = await askInChatView(workbench, '@rlm /file SLOW-STOP what is here?');
  await waitForText(slow, /turn 1|Reading/, 120_000);
  await workbench.page.waitForTimeout(2000);
  const stop = workbench.page.locator('.interactive-input-part').getByRole('button', { name: /^(Cancel|Stop)/ }).first();
  await stop.click();
  const stopped = await waitForText(slow, /Stopped by you/, 60_000);
  assert.match(stopped, /Stopped by you before any turn finished\. Done so far: 0 sub-calls/);
  await slow.getByRole('button', { name: 'Open trajectory' }).waitFor({ state: 'visible', timeout: 10_000 });
  await workbench.screenshot('stopped-from-chat');
});

test('a failure in the chats prints once, with the button for its next step', { timeout: 600_000 }, async (t) => {
  // No key for Anthropic's hosted API: "Set API key..." opens the key box for that server at once.
  const { workbench } = await openWorkbench(t, {
    extraVsix: [packageFakeLanguageModelExtension()],
    userSettings: { 'rlm.root.provider': 'anthropic', 'rlm.root.model': 'claude-test', 'rlm.confirmBeforeSending': false },
  });
  await workbench.openFile('src/retry.ts');
  await workbench.runCommandFromPalette('Chat: Focus on Chat View');
  const noKey = await askInChatView(workbench, '@rlm /file What is the first line?');
  const noKeyText = await waitForText(noKey, /No API key is set for anthropic/);
  assert.equal(noKeyText.match(/No API key is set/g)?.length, 1, `printed once: ${noKeyText}`);
  await noKey.getByRole('button', { name: 'Configure models...' }).waitFor({ state: 'visible', timeout: 10_000 });
  await workbench.screenshot('missing-key-in-chat');
  await noKey.getByRole('button', { name: 'Set API key...' }).click();
  await workbench.page.locator(`${QUICK_INPUT} .quick-input-title`).filter({ hasText: 'API key for anthropic at api.anthropic.com' }).waitFor({ state: 'visible', timeout: 30_000 });
  await workbench.screenshot('set-api-key-opened-from-chat');
  await workbench.page.keyboard.press('Escape');

  // The sidebar chat: the same sentence and the same buttons.
  const chat = await openChat(workbench);
  await askInChat(workbench, chat, 'what is here?');
  await waitForLiveLine(chat, 0, /Not started/);
  const entry = chatEntry(chat, 0);
  assert.match(await entry.locator('.outcome-detail').innerText(), /No API key is set for anthropic/);
  await entry.locator('[data-testid="step-setApiKey"]').waitFor({ state: 'visible', timeout: 10_000 });
  await entry.locator('[data-testid="step-configureModels"]').waitFor({ state: 'visible', timeout: 10_000 });
  await workbench.screenshot('missing-key-in-sidebar');
});

test('a server that cannot be reached offers Configure models... and counts no turn', { timeout: 1_200_000 }, async (t) => {
  const { workbench } = await openWorkbench(t, {
    extraVsix: [packageFakeLanguageModelExtension()],
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': 'http://127.0.0.1:9/v1', 'rlm.root.model': 'fake-model', 'rlm.confirmBeforeSending': false },
  });
  await workbench.openFile('src/retry.ts');
  await workbench.runCommandFromPalette('Chat: Focus on Chat View');
  const failed = await askInChatView(workbench, '@rlm /file What is the first line?');
  // The sandbox starts first; on a loaded machine that alone can take minutes.
  const text = await waitForText(failed, /Could not reach the model server/, 420_000);
  await failed.getByRole('button', { name: 'Configure models...' }).waitFor({ state: 'visible', timeout: 30_000 });
  assert.equal(text.match(/Could not reach/g)?.length, 1, `printed once: ${text}`);
  assert.doesNotMatch(text, /after 1 turn/);
  await workbench.screenshot('unreachable-in-chat');
  await failed.getByRole('button', { name: 'Configure models...' }).click();
  await workbench.getWebviewFrame('[data-testid="root-endpoint"]', 60_000);
  await workbench.screenshot('configure-models-from-chat');

  const chat = await openChat(workbench);
  await askInChat(workbench, chat, 'what is here?');
  const line = await waitForLiveLine(chat, 0, /Failed/, 420_000);
  assert.match(line, /Failed before any turn finished/);
  await chatEntry(chat, 0).locator('[data-testid="step-configureModels"]').waitFor({ state: 'visible', timeout: 10_000 });
  await workbench.screenshot('unreachable-in-sidebar');
});
