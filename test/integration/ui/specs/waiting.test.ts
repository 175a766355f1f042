// Issue 16, item 7 (the chat and view parts): while the model thinks, the turn says so with a spinner
// (not "No model output was recorded"), and while it writes, the chat shows its prose as text and its
// code as code, never a raw ```repl fence as prose.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { askInChat, chatEntry, openChat, waitForLiveLine } from '../../harness/chatDriver';
import { gate, type Gate } from '../../harness/gate';
import { openWorkbench } from '../../harness/openWorkbench';

/** Turn 1 "thinks" until `thinking` opens (the spec has seen it in the chat and the view), then writes. */
function respond(thinking: Gate) {
  return async (request: FakeModelRequest): Promise<FakeResponse> => {
    const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
    if (turn === 1) {
      await thinking.opened;
      return { text: 'I will count the files first, then answer.\n```repl\nnames = sorted(context)\nprint(len(names), "files")\n```', chunkDelayMs: 700 };
    }
    return 'FINAL(There are 6 files.)';
  };
}

test('the model thinking and writing reads as such in the chat and the view', { timeout: 300_000 }, async (t) => {
  const thinking = gate();
  const server = await startFakeOpenAIServer({ respond: respond(thinking), chunkChars: 8 });
  t.after(() => {
    thinking.open();
    return server.close();
  });
  const { workbench } = await openWorkbench(t, {
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': server.baseUrl, 'rlm.root.model': 'fake-model', 'rlm.confirmBeforeSending': false },
  });
  const chat = await openChat(workbench);
  await askInChat(workbench, chat, 'How many files are there?');
  const entry = chatEntry(chat, 0);
  await entry.locator('[data-testid="thinking"]').filter({ hasText: 'The model is thinking' }).waitFor({ timeout: 60_000 });
  await entry.locator('[data-testid="view-trajectory"]').click();
  const view = await workbench.getWebviewFrame('#run-header', 30_000);
  await view.locator('[data-testid="thinking"]').waitFor({ timeout: 30_000 });
  assert.match(await view.locator('.turn').first().innerText(), /The model is thinking…/);
  assert.doesNotMatch(await view.locator('#app').innerText(), /No model output was recorded/);
  assert.equal(await view.locator('[data-testid="thinking"] .codicon-loading').count(), 1, 'with a spinner');
  await workbench.screenshot('thinking-in-chat-and-view');
  thinking.open();

  // The model writes: its prose reads as text and its code as code.
  await entry.locator('.code-preview').waitFor({ timeout: 60_000 });
  const streamed = await entry.locator('[data-testid="streaming"]').innerText();
  assert.match(streamed, /I will count the files first/);
  assert.match(streamed, /Writing Python code…|Python code \(runs next\)/);
  assert.doesNotMatch(streamed, /```/, 'no raw fence');
  await workbench.screenshot('writing-code-in-chat');

  await waitForLiveLine(chat, 0, /Answered/);
  assert.doesNotMatch(await entry.innerText(), /```/);
  await workbench.screenshot('answered');
});
