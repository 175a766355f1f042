// The sidebar chat as a person uses it: a question about the workspace, the streamed answer, a
// follow-up that reuses the conversation, the history of runs, and Stop in the middle of a run.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { openWorkbench } from '../../harness/openWorkbench';
import type { Workbench } from '../../harness/workbench';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';

/** Turn 1 runs code; once an observation came back, answer with the variable it built. */
function respond(request: FakeModelRequest) {
  const text = request.messages.map((m) => m.content).join('\n');
  if (/slow question/.test(text)) return { text: '```repl\nprint(1)\n```', latencyMs: 60_000 };
  const last = request.messages.at(-1);
  const previous = request.messages.at(-2);
  if (last?.role === 'user' && previous?.role === 'assistant' && previous.content.includes('```repl')) return 'FINAL_VAR(result)';
  return '```repl\nresult = f"{len(context)} files bound"\nprint(result)\n```';
}

async function ask(workbench: Workbench, chat: FrameLocator, question: string): Promise<void> {
  const box = chat.locator('vscode-textarea textarea');
  await box.click();
  await box.fill(question);
  await box.press('Enter');
  await workbench.page.waitForTimeout(200);
}

test('sidebar chat: answer, follow-up, history and Stop', { timeout: 420_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond });
  t.after(() => server.close());
  const { workbench } = await openWorkbench(t, {
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': server.baseUrl, 'rlm.root.model': 'fake-model', 'rlm.confirmBeforeSending': false },
  });
  await workbench.runCommandFromPalette('RLM: Focus on Chat View');
  const chat = await workbench.getWebviewFrame('[data-testid="question"]', 60_000);
  await workbench.screenshot('sidebar-open');

  await ask(workbench, chat, 'How many files are there?');
  const answers = chat.locator('[data-testid="answer"]');
  await answers.first().waitFor({ state: 'visible', timeout: 180_000 });
  assert.match(await answers.first().innerText(), /\d+ files bound/);
  assert.match(await chat.locator('[data-testid="live-line"]').first().innerText(), /Answered in \d+ turns? · 0 sub-calls · [\d.k]+ tokens · local \(no charge\)/);
  await workbench.screenshot('first-answer');

  await ask(workbench, chat, 'And again, as a follow-up?');
  await answers.nth(1).waitFor({ state: 'visible', timeout: 120_000 });
  const followUpRequests = server.completionRequests.filter((r) => r.rawBody.includes('And again, as a follow-up?'));
  assert.ok(followUpRequests.length > 0);
  assert.ok(followUpRequests.every((r) => r.rawBody.includes('How many files are there?')), 'the follow-up carries the earlier question as a prior turn');
  await workbench.screenshot('follow-up-answer');

  await chat.locator('[data-testid="tab-history"]').click();
  const items = chat.locator('[data-testid="history-item"]');
  await items.nth(1).waitFor({ state: 'visible', timeout: 30_000 });
  assert.ok((await items.count()) >= 2);
  await chat.locator('vscode-textfield input').fill('follow-up');
  await workbench.page.waitForTimeout(500);
  assert.equal(await items.count(), 1, 'search filters the history by question');
  await workbench.screenshot('history-search');

  await chat.locator('[data-testid="tab-chat"]').click();
  await ask(workbench, chat, 'A slow question');
  const stop = chat.locator('[data-testid="stop"]');
  // Stop once the run is going (the model is slow to answer), not while files are gathered.
  await chat.locator('[data-testid="live-line"]').nth(2).filter({ hasText: 'Running' }).waitFor({ state: 'visible', timeout: 120_000 });
  await workbench.screenshot('running-with-stop');
  await stop.click();
  await chat.locator('[data-testid="live-line"]').nth(2).filter({ hasText: 'Stopped' }).waitFor({ state: 'visible', timeout: 60_000 });
  await workbench.screenshot('stopped');

  // Hidden and shown again, the re-created view asks for the state and shows the same conversation.
  await workbench.runCommandFromPalette('View: Show Explorer');
  await workbench.runCommandFromPalette('RLM: Focus on Chat View');
  const again = await workbench.getWebviewFrame('[data-testid="answer"]', 60_000);
  assert.equal(await again.locator('[data-testid="answer"]').count(), 2);
  assert.match(await again.locator('[data-testid="live-line"]').nth(2).innerText(), /Stopped/);
  await workbench.screenshot('reshown-keeps-conversation');
});
