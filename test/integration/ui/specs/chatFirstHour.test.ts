// Issue 31, items 3-5, in VS Code's Chat view as a new user meets them: `@rlm /file` right after a run
// (the run's view is the active tab) still means the file on screen, and a typed `#file:retry.ts`
// (no completion) means that file; a failure prints its sentence once, with the button for its next
// step ("Set API key...", "Configure models..."), in the chat and in the sidebar chat. (A Stop from the
// Chat view's own button is not driven here: what VS Code shows of a response after it cancels the
// request is its own; the "Stopped by you" ending is covered by chatEnding.test.ts.)
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

/** Reads the first line of `context`, then answers with it. */
function respond(request: FakeModelRequest): FakeResponse {
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  if (turn === 0) return 'Reading the first line.\n```repl\nresult = context.splitlines()[0]\nprint(result)\n```';
  return 'FINAL_VAR(result)';
}

async function askInChatView(workbench: Workbench, text: string): Promise<Locator> {
  const input = workbench.page.locator('.interactive-input-part .monaco-editor').first();
  await input.waitFor({ state: 'visible', timeout: 60_000 });
  // The Chat view's list is virtual: rows out of sight are not in the page, so a response is found as
  // the last one rendered (the list follows the newest), never by its index among the rendered ones.
  const responses = workbench.page.locator('.interactive-item-container.interactive-response');
  const requests = workbench.page.locator('.interactive-item-container.interactive-request');
  const lastRequest = async (): Promise<string> => (await requests.count()) ? await requests.last().innerText().catch(() => '') : '';
  const before = await lastRequest();
  await input.click({ force: true });
  // The chat keeps "@rlm" in the box after an answer: replace it.
  await workbench.page.keyboard.press('Control+A');
  await workbench.page.keyboard.type(text);
  // A suggestion list may be open on "#file:": typed text is what is sent, not a completion.
  await workbench.page.keyboard.press('Escape');
  await workbench.page.keyboard.press('Enter');
  const words = text.replace(/^@rlm\s+(\/\w+\s+)?/, '').slice(0, 20);
  // Sent when the list ends with this question's row and the response row after it.
  await workbench.page.waitForFunction(
    ([previous, expected]) => {
      const rows = document.querySelectorAll('.interactive-item-container');
      const response = rows[rows.length - 1] as HTMLElement | undefined;
      const request = rows[rows.length - 2] as HTMLElement | undefined;
      return !!response && !!request && response.classList.contains('interactive-response') && request.classList.contains('interactive-request') && request.innerText !== previous && request.innerText.includes(expected);
    },
    [before, words] as const,
    { timeout: 60_000 },
  );
  const response = responses.last();
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

test('@rlm /file after a run and after opening its trajectory, and a typed #file:NAME', { timeout: 600_000 }, async (t) => {
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
  const afterRun = await askInChatView(workbench, '@rlm /file And now, what is the first line?');
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
