// Issue 16, item 6: words a person understands. Markdown is rendered where we render (the chat, the
// view) and plain text where we cannot (the notification, the History preview): no `**` in sight.
// Counts have proper plurals ("1 sub-call"); a failed connection test is a sentence about the server,
// not "RLM failed" with "fetch failed" or an error code.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { askInChat, chatEntry, openChat, waitForLiveLine } from '../../harness/chatDriver';
import { openWorkbench } from '../../harness/openWorkbench';

const ANSWER = '**42** errors in `app.log`; see [the log](https://example.com/log).';

function respond(request: FakeModelRequest): FakeResponse {
  const last = request.messages.at(-1)?.content ?? '';
  if (last.startsWith('Say ok')) return 'ok';
  const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
  if (turn === 1) return `Let me count.\n\`\`\`repl\ncheck = llm_query("Say ok")\nresult = ${JSON.stringify(ANSWER)}\nprint(check)\n\`\`\``;
  return 'FINAL_VAR(result)';
}

const INTERNAL = /\*\*|RLM failed|fetch failed|ECONNREFUSED|Connection error|RunCancelledError|Zh:|\(s\)|\?\./;

test('Markdown rendered in the chat, plain in notifications and History; proper plurals', { timeout: 300_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond });
  t.after(() => server.close());
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-words-ws-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  writeFileSync(join(workspace, 'app.log'), 'ERROR one\nERROR two\n');
  const { workbench } = await openWorkbench(t, {
    workspace,
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': server.baseUrl, 'rlm.root.model': 'fake-model', 'rlm.confirmBeforeSending': false },
  });
  const chat = await openChat(workbench);
  await askInChat(workbench, chat, 'How many errors are in the log?');
  const line = await waitForLiveLine(chat, 0, /Answered/);
  assert.match(line, /Answered in 2 turns · 1 sub-call · /, 'one sub-call, not "1 sub-calls"');
  const answer = chatEntry(chat, 0).locator('[data-testid="answer"]');
  assert.equal(await answer.locator('strong').innerText(), '42', 'bold is rendered');
  assert.equal(await answer.locator('code').innerText(), 'app.log');
  assert.doesNotMatch(await answer.innerText(), INTERNAL);
  await workbench.screenshot('markdown-rendered-in-chat');

  await chat.locator('[data-testid="tab-history"]').click();
  const preview = chat.locator('.history-preview').first();
  await preview.waitFor({ timeout: 30_000 });
  assert.equal(await preview.innerText(), '42 errors in app.log; see the log.');
  await workbench.screenshot('plain-history-preview');

  await workbench.openFile('app.log');
  await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
  const input = workbench.page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill('How many errors, again?');
  await workbench.page.keyboard.press('Enter');
  const done = await workbench.waitForNotification(/42 errors in app\.log/, 120_000);
  const text = await done.innerText();
  assert.match(text, /RLM: 42 errors in app\.log; see the log\./);
  assert.doesNotMatch(text, INTERNAL);
  await workbench.screenshot('plain-notification');
});

test('a failed connection test says what is wrong with the server, in words', { timeout: 180_000 }, async (t) => {
  const { workbench } = await openWorkbench(t, {
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': 'http://127.0.0.1:9/v1', 'rlm.root.model': 'fake-model' },
  });
  await workbench.runCommandFromPalette('RLM: Test connection');
  const toast = await workbench.waitForNotification(/model server/i, 60_000);
  const text = await toast.innerText();
  assert.match(text, /Could not reach the model server at http:\/\/127\.0\.0\.1:9\/v1/);
  assert.doesNotMatch(text, INTERNAL);
  await workbench.screenshot('connection-test-failed');
});
