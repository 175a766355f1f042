// Poking at a run's session in a real VS Code: after a live run ends, the user's own cell runs in its
// REPL (the root's variables, `context`, a billed llm_query) and shows as "You"; Continue this run from
// the History list replays the run (the user's cell as the user's) and the root is told of that cell;
// a recorded file's cell input replays the run into a new REPL and runs the cell there.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { acceptModal } from '../../harness/modalDialog';
import { openWorkbench } from '../../harness/openWorkbench';
import type { Workbench } from '../../harness/workbench';

const isRoot = (r: FakeModelRequest): boolean => !!r.system?.includes('persistent Python REPL');

function reply(r: FakeModelRequest): string {
  if (!isRoot(r)) return `sub says: ${r.messages.at(-1)?.content ?? ''}`;
  const first = r.messages[0]?.content ?? '';
  const turn = r.messages.filter((m) => m.role === 'assistant').length;
  if (first.includes('Question: Which word comes first?')) {
    return turn === 0 ? '```repl\nwords = context.split()\nprint(len(words), words[0])\n```' : '```repl\nFINAL(f"{words[0]} (notes.txt:1)")\n```';
  }
  // The follow-up asked with Continue this run: answered from the user's variable.
  return turn === 0 ? '```repl\nprint(mine)\n```' : '```repl\nFINAL(f"You computed {mine}")\n```';
}

async function runCell(view: FrameLocator, code: string): Promise<void> {
  const input = view.locator('[data-testid="user-cell-input"]');
  await input.fill(code);
  await view.locator('[data-testid="user-cell-run"]').click();
}

async function ask(workbench: Workbench, question: string): Promise<void> {
  await workbench.openFile('notes.txt');
  await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
  const input = workbench.page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(question);
  await workbench.page.keyboard.press('Enter');
}

test('the user\'s cells in a finished run\'s REPL, Continue this run from History, and Replay and run on a recorded file', { timeout: 600_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond: reply });
  t.after(() => server.close());
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-user-cells-ws-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  writeFileSync(join(workspace, 'notes.txt'), 'alpha beta\ngamma delta\n');
  const { workbench } = await openWorkbench(t, {
    workspace,
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': server.baseUrl, 'rlm.root.model': 'fake-model', 'rlm.confirmBeforeSending': false, 'rlm.trajectoriesInWorkspace': true },
  });
  const subRequests = (): FakeModelRequest[] => server.completionRequests.map((r) => r.parsed).filter((p): p is FakeModelRequest => p !== undefined && !isRoot(p));

  // 1. A live run ends; its REPL is kept for the view's cell input.
  await ask(workbench, 'Which word comes first?');
  const live = await workbench.getWebviewFrame('.status-badge.status-completed', 120_000);
  const status = live.locator('[data-testid="user-cell-status"]');
  await live.locator('[data-testid="user-cell-run"]:not([disabled])').waitFor({ timeout: 30_000 });
  assert.match(await status.innerText(), /Runs in this run's REPL/);
  await runCell(live, 'mine = len(words) * 10\nprint(words[-1], mine, llm_query("hello from me"))');
  const userTurn = live.locator('article.user-turn');
  await userTurn.locator('.stdout').waitFor({ timeout: 60_000 });
  assert.match(await userTurn.locator('.stdout').innerText(), /delta 40 sub says: hello from me/);
  assert.match(await userTurn.locator('h2').innerText(), /You/);
  assert.equal(await userTurn.locator('.badge.user', { hasText: 'yours' }).count(), 1, 'the sub-call is shown as the user\'s');
  assert.equal(subRequests().filter((r) => r.messages.at(-1)?.content === 'hello from me').length, 1, 'the user\'s llm_query was sent');
  await userTurn.scrollIntoViewIfNeeded();
  await workbench.screenshot('user-cell-in-finished-run');

  // A runaway cell is stopped from the input's Stop.
  await runCell(live, 'while True:\n    pass');
  await live.locator('[data-testid="user-cell-stop"]:visible').click({ timeout: 30_000 });
  await live.locator('article.user-turn .badge', { hasText: 'interrupted' }).waitFor({ timeout: 60_000 });
  await workbench.screenshot('user-cell-stopped');

  // 2. Continue this run… from the History list: the replay re-runs the user's cells as theirs (nothing
  //    re-billed) and the follow-up's root is told of them.
  await workbench.runCommandFromPalette('RLM: Focus on Chat View');
  const chat = await workbench.getWebviewFrame('[data-testid="tab-history"]', 60_000);
  await chat.locator('[data-testid="tab-history"]').click();
  const item = chat.locator('[data-testid="history-item"]', { hasText: 'Which word comes first?' });
  await item.waitFor({ timeout: 30_000 });
  await workbench.screenshot('history-with-continue');
  const subsBefore = subRequests().length;
  await item.locator('[data-testid="history-continue"]').click();
  const question = workbench.page.locator('.quick-input-widget input');
  await question.waitFor({ state: 'visible', timeout: 30_000 });
  await question.fill('What did I compute?');
  await workbench.page.keyboard.press('Enter');
  assert.match(await acceptModal(workbench, 'Read and continue'), /notes\.txt/);
  const continued = await workbench.getWebviewFrame('#run-header .badge:has-text("continued from")', 120_000);
  await continued.locator('.status-badge.status-completed').waitFor({ timeout: 120_000 });
  assert.match(await continued.locator('.answer-body').innerText(), /You computed 40/);
  assert.equal(subRequests().length, subsBefore, 'the user\'s sub-call was answered from the record');
  const followUp = server.completionRequests.map((r) => r.parsed).find((p) => p && isRoot(p) && p.messages[0]?.content.includes('What did I compute?'));
  assert.match(followUp?.messages[0]?.content ?? '', /the user ran 1 cell of their own/);
  await workbench.screenshot('continued-from-history');

  // 3. A recorded file's REPL is gone: Replay and run replays it into a new REPL, then runs the cell.
  // (Its live view, still open, would be brought to the front instead: one view per run. Closed, its REPL ends.)
  await workbench.runCommandFromPalette('View: Close All Editors');
  // The webviews are counted afresh once editors closed: find the sidebar again.
  const history = await workbench.getWebviewFrame('[data-testid="tab-history"]', 60_000);
  await history.locator('[data-testid="history-item"]', { hasText: 'Which word comes first?' }).locator('.history-question').click();
  const recorded = await workbench.getWebviewFrame('[data-testid="user-cell-run"]:has-text("Replay and run")', 60_000);
  await runCell(recorded, 'print(mine + 2)');
  assert.match(await acceptModal(workbench, 'Read and replay'), /notes\.txt/);
  const replayed = await workbench.getWebviewFrame('#run-header .badge:has-text("replayed, for your own cells")', 120_000);
  await replayed.locator('article.user-turn .stdout', { hasText: '42' }).waitFor({ timeout: 120_000 });
  assert.equal(subRequests().length, subsBefore, 'nothing was re-billed by the replay');
  await replayed.locator('article.user-turn').last().scrollIntoViewIfNeeded();
  await workbench.screenshot('replay-and-run');
});
