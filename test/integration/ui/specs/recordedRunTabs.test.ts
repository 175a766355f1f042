// Issue 31, item 7 (what was left): a recorded run RLM opens for the user (History, Open trajectory...,
// a parent link) is a tab titled by its question, not by its timestamped file name, with no
// storage-path breadcrumbs; the same run opened again brings its tab to the front (one view per run);
// a fork names its parent by its question, and that link opens the parent's tab.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { openChat } from '../../harness/chatDriver';
import { openWorkbench } from '../../harness/openWorkbench';

const SAMPLE = resolve(__dirname, '../../../fixtures/trajectories/sample.rlm.jsonl');
const PARENT_QUESTION = 'Which lines of the log mention a timeout?';
const FORK_QUESTION = 'Which of those timeouts came from the database?';
/** The start of the tab's title (the question, clipped at a word). */
const PARENT_TAB = 'Which lines of the log mention';
const PICK_ROWS = '.quick-input-widget .quick-input-list .monaco-list-row';

/** The sample run under another question and run id; `continuedFrom` goes into its run.started record. */
function seedRun(path: string, runId: string, question: string, continuedFrom?: object): void {
  const lines = readFileSync(SAMPLE, 'utf8').trim().split('\n').map((line) => line.replaceAll('"runId":"run-1"', `"runId":"${runId}"`));
  const out = lines.map((line, i) => {
    const record = JSON.parse(line) as Record<string, unknown>;
    if (i === 0) return JSON.stringify({ ...record, question });
    if (record.type === 'run.started' && record.runId === runId) return JSON.stringify({ ...record, question, ...(continuedFrom ? { continuedFrom } : {}) });
    return line;
  });
  writeFileSync(path, out.join('\n') + '\n');
}

test('recorded runs open in tabs titled by their question, once each, and a fork links its parent by question', { timeout: 300_000 }, async (t) => {
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-recorded-tabs-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  const runs = join(workspace, '.rlm', 'runs');
  mkdirSync(runs, { recursive: true });
  const parentFile = join(runs, '2026-12-05T08-00-00-which-lines.rlm.jsonl');
  seedRun(parentFile, 'run-parent', PARENT_QUESTION);
  seedRun(join(runs, '2026-12-05T08-05-00-fork.rlm.jsonl'), 'run-fork', FORK_QUESTION, { mode: 'fork', trajectory: parentFile, runId: 'run-parent', question: PARENT_QUESTION, fromTurn: 2, allowDivergence: false });
  const { workbench, page } = await openWorkbench(t, { workspace, userSettings: { 'rlm.trajectoriesInWorkspace': true } });
  const tabs = page.locator('.part.editor .tabs-container .tab');
  const tabTitled = (title: string) => tabs.filter({ has: page.locator('.label-name', { hasText: title }) });
  const fileTabs = async (): Promise<string[]> => (await tabs.evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? ''))).filter((label) => label.includes('.jsonl'));

  const chat = await openChat(workbench);
  await chat.locator('[data-testid="tab-history"]').click();
  const items = chat.locator('[data-testid="history-item"]');
  const parentItem = items.filter({ hasText: PARENT_QUESTION });
  await parentItem.waitFor({ timeout: 60_000 });

  // From History: a tab titled by the question, showing the run; no file name, no breadcrumbs.
  await parentItem.locator('.history-question').click();
  await tabTitled(PARENT_TAB).first().waitFor({ timeout: 60_000 });
  const view = await workbench.getWebviewFrame('#run-header', 60_000);
  assert.match(await view.locator('#run-header .question-text').innerText(), /Which lines of the log mention a timeout\?/);
  assert.deepEqual(await fileTabs(), [], 'no tab is named after a file');
  assert.equal(await page.locator('.part.editor .breadcrumbs-control:visible').count(), 0, 'no storage-path breadcrumbs');
  await workbench.screenshot('history-opens-a-tab-titled-by-the-question');

  // Again from History, then from "Open trajectory...": the same tab comes to the front, no second one.
  await parentItem.locator('.history-question').click();
  await page.waitForTimeout(1000);
  assert.equal(await tabTitled(PARENT_TAB).count(), 1, 'opened again from History: the same tab');
  await workbench.openQuickPickFromPalette('RLM: Open trajectory...');
  await page.locator(PICK_ROWS, { hasText: PARENT_QUESTION }).first().click();
  await page.waitForTimeout(1000);
  assert.equal(await tabTitled(PARENT_TAB).count(), 1, 'one view per run, whichever way it is opened');

  // A fork: "Fork: …" in its tab, its parent named by question (never a path), and the link opens the parent's tab.
  await items.filter({ hasText: FORK_QUESTION }).locator('.history-question').click();
  await tabTitled('Fork: Which of those timeouts').first().waitFor({ timeout: 60_000 });
  const fork = await workbench.getWebviewFrame('[data-testid="continued-from"]', 60_000);
  const header = await fork.locator('#run-header .status-line').innerText();
  assert.match(header, /Forked at turn 2 from “Which lines of the log mention a timeout\?”/);
  assert.doesNotMatch(header, /\.jsonl|\.rlm[\\/]runs/, 'the parent is never named by its file');
  await workbench.screenshot('fork-names-its-parent-by-question');
  await fork.locator('[data-testid="open-parent"]').click();
  await page.locator('.part.editor .tabs-container .tab.active', { has: page.locator('.label-name', { hasText: PARENT_TAB }) }).waitFor({ timeout: 30_000 });
  assert.equal(await tabTitled(PARENT_TAB).count(), 1, 'the parent link brings the open tab to the front');
  assert.deepEqual(await fileTabs(), [], 'still no tab named after a file');
  // A webview brought back to the front draws its page again (VS Code does not keep hidden ones).
  await workbench.getWebviewFrame(`#run-header .question-text:has-text("${PARENT_QUESTION}")`, 30_000);
  await workbench.screenshot('parent-link-brings-its-tab-to-the-front');
});
