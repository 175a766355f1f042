// Issue 16, item 3: stopped, limited and failed runs read as what they are, in the chat and in the
// trajectory view. A stop is neutral ("Stopped by you after 1 turn", Ask again, no error); a limit
// names itself and its setting, with the last output as partial findings, not an answer; a failure
// says its cause in words.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { askInChat, chatEntry, openChat, waitForLiveLine } from '../../harness/chatDriver';
import { openWorkbench } from '../../harness/openWorkbench';

function respond(request: FakeModelRequest): FakeResponse {
  const text = request.messages.map((m) => m.content).join('\n');
  if (text.includes('STOP-ME')) return { text: '```repl\nprint(1)\n```', latencyMs: 60_000 };
  if (text.includes('FAIL-ME')) return { status: 404, errorType: 'invalid_request_error', errorMessage: 'The model `fake-model` does not exist or you do not have access to it.' };
  if (text.includes('LIMIT-ME')) {
    const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
    return `Counting chunk ${turn}.\n\`\`\`repl\nprint("found ${turn * 7} errors in ${turn} of 10 chunks")\n\`\`\``;
  }
  return 'FINAL(ok)';
}

test('a stop, a limit and a failure read as what they are', { timeout: 420_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond });
  t.after(() => server.close());
  const { workbench } = await openWorkbench(t, {
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': server.baseUrl, 'rlm.root.model': 'fake-model', 'rlm.confirmBeforeSending': false, 'rlm.maxIterations': 2 },
  });
  const chat = await openChat(workbench);

  // A stop.
  await askInChat(workbench, chat, 'STOP-ME: count every error in the logs');
  await waitForLiveLine(chat, 0, /Running · turn 1/);
  await chatEntry(chat, 0).locator('[data-testid="stop"]').click();
  const stopped = await waitForLiveLine(chat, 0, /Stopped by you/);
  assert.match(stopped, /^Stopped by you before any turn finished · 0 sub-calls · [\d.k]+ tokens · local \(no charge\)$/);
  assert.equal(await chatEntry(chat, 0).locator('.tone-error, [role="alert"]').count(), 0, 'a stop shows no error');
  assert.equal(await chatEntry(chat, 0).locator('[data-testid="answer"]').count(), 0, 'and no answer');
  assert.equal(await chatEntry(chat, 0).locator('[data-testid="ask-again"]').count(), 1, 'it offers to ask again');
  await workbench.screenshot('stopped-in-chat');

  // Ask again: the same question, about the same target, as a new entry; stopped again.
  await chatEntry(chat, 0).locator('[data-testid="ask-again"]').click();
  await waitForLiveLine(chat, 1, /Running/);
  // The entry can draw its live line a moment before its question text.
  await chatEntry(chat, 1).locator('.question-text').filter({ hasText: /STOP-ME: count every error/ }).waitFor({ state: 'visible', timeout: 10_000 });
  await chatEntry(chat, 1).locator('[data-testid="stop"]').click();
  await waitForLiveLine(chat, 1, /Stopped by you/);

  // A limit: two turns of code and no answer.
  await chat.locator('[data-testid="new-conversation"]').click();
  await askInChat(workbench, chat, 'LIMIT-ME: how many errors are there?');
  const limited = await waitForLiveLine(chat, 0, /Stopped at the turn limit/);
  assert.match(limited, /Stopped at the turn limit after 3 turns, without an answer/);
  const limitEntry = chatEntry(chat, 0);
  assert.match(await limitEntry.locator('.outcome-detail').innerText(), /The run reached the turn limit \(\d+ of 2\)\. Raise rlm\.maxIterations/);
  assert.match(await limitEntry.locator('[data-testid="partial-findings"] summary').innerText(), /Partial findings — not an answer/);
  await limitEntry.locator('[data-testid="partial-findings"] summary').click();
  assert.match(await limitEntry.locator('[data-testid="partial-findings"] pre').innerText(), /found \d+ errors in \d+ of 10 chunks/);
  assert.equal(await limitEntry.locator('[data-testid="answer"]').count(), 0, 'partial findings are never the answer');
  assert.equal(await limitEntry.getByRole('button', { name: 'Open rlm.maxIterations' }).count(), 1);
  await workbench.screenshot('limit-in-chat');

  // The same run in the trajectory view.
  await limitEntry.locator('[data-testid="view-trajectory"]').click();
  const view = await workbench.getWebviewFrame('#run-header', 60_000);
  await view.locator('[data-testid="outcome"]').filter({ hasText: 'turn limit' }).waitFor({ timeout: 30_000 });
  assert.match(await view.locator('[data-testid="outcome"]').innerText(), /Stopped at the turn limit after 3 turns, without an answer/);
  assert.match(await view.locator('[data-testid="partial-findings"]').innerText(), /not an answer[\s\S]*found \d+ errors/i);
  assert.equal(await view.locator('#final-answer').count(), 0);
  assert.match(await view.locator('.stats').innerText(), /local \(no charge\)/);
  await workbench.screenshot('limit-in-view');

  // A failure, with its cause.
  await workbench.runCommandFromPalette('RLM: Focus on Chat View');
  await chat.locator('[data-testid="new-conversation"]').click();
  await askInChat(workbench, chat, 'FAIL-ME: what is in the logs?');
  const failed = await waitForLiveLine(chat, 0, /Failed/);
  // It failed in its first model call: no turn finished, and the line says so (turns count replies that arrived).
  assert.match(failed, /^Failed before any turn finished/);
  const detail = await chatEntry(chat, 0).locator('.outcome-detail').innerText();
  assert.match(detail, /model server rejected the request[\s\S]*does not exist[\s\S]*Check the model name/);
  assert.doesNotMatch(detail, /Error\b|Zh:|internal:|fetch failed|\?\./);
  await workbench.screenshot('failed-in-chat');
});
