// @rlm in VS Code's Chat view, typed by a user: the test-only extension provides a language model (and
// the default participant the Chat view needs in code-server); with no RLM model configured, @rlm
// runs the whole loop on the chat's model and answers in the chat with progress, the answer, its
// footer ("included in your plan") and the Open trajectory button; a citation in an answer is an
// anchor that opens the file at the line.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { packageFakeLanguageModelExtension } from '../../harness/fakeLanguageModelVsix';
import { openWorkbench } from '../../harness/openWorkbench';
import { sampleWorkspaceDir } from '../../harness/outputPaths';

test('@rlm /file answers in the Chat view through the full loop', { timeout: 300_000 }, async (t) => {
  const { workbench } = await openWorkbench(t, { extraVsix: [packageFakeLanguageModelExtension()], userSettings: { 'rlm.confirmBeforeSending': false } });
  const lines = readFileSync(join(sampleWorkspaceDir(), 'src', 'retry.ts'), 'utf8').split(/\r?\n/).length;
  await workbench.openFile('src/retry.ts');
  await workbench.runCommandFromPalette('Chat: Focus on Chat View');
  const input = workbench.page.locator('.interactive-input-part .monaco-editor').first();
  await input.waitFor({ state: 'visible', timeout: 60_000 });
  await input.click({ force: true });
  await workbench.page.keyboard.type('@rlm /file How many lines does this file have?');
  await workbench.page.keyboard.press('Enter');
  const response = workbench.page.locator('.interactive-item-container.interactive-response').last();
  await response.getByRole('button', { name: 'Open trajectory' }).waitFor({ state: 'visible', timeout: 180_000 });
  const text = await response.innerText();
  assert.match(text, /included in your plan/);
  assert.match(text, new RegExp(`\\b${lines - 1} lines|\\b${lines} lines`), text);
  assert.match(text, /1 sub-call/);
  await workbench.screenshot('rlm-answers-in-chat');

  // A citation in the answer (resolved by the loop against the file) is an anchor that opens the file at
  // that line, and is listed as the response's reference.
  await input.click({ force: true });
  // The chat keeps "@rlm" in the input after an answer: replace it rather than typing a second one.
  await workbench.page.keyboard.press('Control+A');
  await workbench.page.keyboard.type('@rlm /file Where does it start? cite retry.ts:2');
  await workbench.page.keyboard.press('Enter');
  const cited = workbench.page.locator('.interactive-item-container.interactive-response').nth(1);
  await cited.getByRole('button', { name: 'Open trajectory' }).waitFor({ state: 'visible', timeout: 180_000 });
  assert.match(await cited.innerText(), /It starts at/);
  const anchor = cited.locator('.chat-inline-anchor-widget').filter({ hasText: 'retry.ts' }).first();
  await anchor.waitFor({ state: 'visible', timeout: 30_000 });
  assert.match(await cited.innerText(), /Used 1 reference/);
  await workbench.screenshot('rlm-chat-answer-with-reference');
  await workbench.runCommandFromPalette('View: Close All Editors');
  await anchor.click();
  await workbench.page.locator('.statusbar').getByText(/Ln 2, Col/).waitFor({ timeout: 30_000 });
  assert.match(await workbench.page.locator('.tabs-container .tab.active').innerText(), /retry\.ts/);
  await workbench.screenshot('rlm-chat-reference-opened');
});
