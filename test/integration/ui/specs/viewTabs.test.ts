// Issue 31, items 7 and 9 (the trajectory view's parts): a question asked from the rightmost of three
// editor groups opens its view in an existing group (no fourth), titled by the question clipped at a
// word; Stop stays in sight in the toolbar while the view follows a long run; a chat conversation has
// one view that its follow-up reuses; running a "You" cell scrolls to its output.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FrameLocator, Page } from 'playwright-core';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { askInChat, chatEntry, openChat } from '../../harness/chatDriver';
import { openWorkbench } from '../../harness/openWorkbench';

const LONG_QUESTION = 'Which lines of the notes mention a Greek letter, and in which order do they appear?';
const isRoot = (r: FakeModelRequest): boolean => !!r.system?.includes('persistent Python REPL');

function respond(request: FakeModelRequest): FakeResponse {
  if (!isRoot(request)) return { text: 'ok', latencyMs: 300 };
  const question = request.messages[0]?.content ?? '';
  const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
  // The long run: many turns with printed lines, so the view scrolls while it follows.
  if (question.includes('Greek letter')) {
    if (turn > 8) return 'FINAL(all of them)';
    return { text: `Turn ${turn}.\n\`\`\`repl\nfor i in range(30):\n    print("line", i)\n\`\`\``, latencyMs: 700 };
  }
  return turn === 1 ? '```repl\nwords = context.split() if isinstance(context, str) else [1]\nprint(len(words))\n```' : 'FINAL(counted)';
}

/** The editor tabs' labels, and how many editor groups there are. */
async function layout(page: Page): Promise<{ groups: number; tabs: string[] }> {
  const groups = await page.locator('.part.editor .editor-group-container').count();
  const tabs = (await page.locator('.part.editor .tabs-container .tab .label-name').allInnerTexts()).map((t) => t.trim());
  return { groups, tabs };
}

async function inView(view: FrameLocator, selector: string): Promise<boolean> {
  return view.locator(selector).last().evaluate((node) => {
    const box = node.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight && box.height > 0;
  });
}

test('views open beside the asking editor in an existing group, one per conversation, titled by the question; Stop stays in sight; a You cell is scrolled to', { timeout: 600_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond });
  t.after(() => server.close());
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-view-tabs-ws-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  writeFileSync(join(workspace, 'notes.txt'), 'alpha beta\ngamma delta\nepsilon zeta\n');
  const { workbench, page } = await openWorkbench(t, {
    workspace,
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': server.baseUrl, 'rlm.root.model': 'fake-model', 'rlm.confirmBeforeSending': false },
  });

  // Three groups, the rightmost active: the view goes into an existing group, not a fourth.
  await workbench.openFile('notes.txt');
  await workbench.runCommandFromPalette('View: Split Editor Right');
  await workbench.runCommandFromPalette('View: Split Editor Right');
  await page.waitForFunction(() => document.querySelectorAll('.part.editor .editor-group-container').length === 3, undefined, { timeout: 15_000 });
  await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(LONG_QUESTION);
  await page.keyboard.press('Enter');
  const live = await workbench.getWebviewFrame('.status-badge.status-running', 90_000);
  await live.locator('.turn-slot').nth(3).waitFor({ timeout: 90_000 });
  const during = await layout(page);
  assert.equal(during.groups, 3, `still three groups: ${JSON.stringify(during)}`);
  assert.ok(during.tabs.includes('Which lines of the notes mention a…'), `the tab is titled by the question, clipped at a word: ${JSON.stringify(during.tabs)}`);
  // Following the run, the list has scrolled far down; Stop is still in sight.
  assert.ok(await live.locator('.scroller').evaluate((n) => n.scrollTop > 200), 'the view follows the run down');
  assert.equal(await inView(live, '[data-testid="stop-run"]'), true, 'Stop is in sight while following');
  await workbench.screenshot('three-groups-view-in-existing-group-stop-in-sight');
  await live.locator('.status-badge.status-completed').waitFor({ timeout: 120_000 });
  assert.equal(await live.locator('[data-testid="stop-run"]').isVisible(), false, 'no Stop once the run ended');

  // A "You" cell: the view scrolls to it and its output.
  await live.locator('.scroller').evaluate((n) => { n.scrollTop = 0; });
  await live.locator('[data-testid="user-cell-input"]').fill('print("mine", 6 * 7)');
  await live.locator('[data-testid="user-cell-run"]').click();
  await live.locator('section.cell.user-cell-run .stdout', { hasText: 'mine 42' }).waitFor({ timeout: 60_000 });
  await page.waitForTimeout(500);
  assert.equal(await inView(live, 'section.cell.user-cell-run .stdout'), true, 'the cell\'s output is in sight');
  await workbench.screenshot('you-cell-scrolled-to-output');

  // The chat: a question and its follow-up share one view.
  await workbench.runCommandFromPalette('View: Close All Editors');
  const chat = await openChat(workbench);
  await askInChat(workbench, chat, 'How many words are there?');
  await chatEntry(chat, 0).locator('[data-testid="answer"]').waitFor({ timeout: 120_000 });
  await chatEntry(chat, 0).locator('[data-testid="view-trajectory"]').click();
  await workbench.getWebviewFrame('.status-badge.status-completed', 60_000);
  await page.locator('.part.editor .tabs-container .tab', { hasText: 'How many words are there?' }).waitFor({ timeout: 30_000 });
  await askInChat(workbench, chat, 'And how many are unique?');
  await chatEntry(chat, 1).locator('[data-testid="answer"]').waitFor({ timeout: 120_000 });
  await chatEntry(chat, 1).locator('[data-testid="view-trajectory"]').click();
  await page.locator('.part.editor .tabs-container .tab', { hasText: 'And how many are unique?' }).waitFor({ timeout: 30_000 });
  // The reused view shows the follow-up (its page reloads with the follow-up's state).
  const reused = await workbench.getWebviewFrame('#run-header .question-text:has-text("And how many are unique?")', 60_000);
  assert.match(await reused.locator('[data-testid="outcome"]').innerText(), /Answered/);
  const after = await layout(page);
  assert.deepEqual(after.tabs.filter((tab) => /How many words|how many are unique/.test(tab)), ['And how many are unique?'], `one view for the conversation: ${JSON.stringify(after.tabs)}`);
  await workbench.screenshot('follow-up-reuses-the-conversation-view');
});
