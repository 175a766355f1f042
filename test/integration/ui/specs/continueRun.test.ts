// "Continue this run..." in a real VS Code: a run recorded by `rlm ask` (fake server) opens in the
// trajectory view; its button asks for the follow-up, shows the recorded input in a modal (read only
// once accepted), replays the recorded cells (the sub-call answered from the record, not
// sent) and asks the follow-up, which the live view shows answered from the replayed variables.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { acceptModal } from '../../harness/modalDialog';
import { openWorkbench } from '../../harness/openWorkbench';
import { runCli } from '../../../node/cli/cliProcess';

const isRoot = (r: FakeModelRequest): boolean => !!r.system?.includes('persistent Python REPL');

function reply(r: FakeModelRequest): string {
  if (!isRoot(r)) return 'hello from the sub model';
  const followUp = r.messages[0]?.content.includes('Earlier in this conversation') ?? false;
  const turn = r.messages.filter((m) => m.role === 'assistant').length;
  if (!followUp) return turn === 0 ? '```repl\nfirst = context.split()[0]\nsummary = llm_query("Say hi about " + first)\nprint(first, summary)\n```' : '```repl\nFINAL(f"The first word is {first} (notes.txt:1)")\n```';
  return turn === 0 ? '```repl\nprint(first, summary)\n```' : '```repl\nFINAL(f"Replayed: {summary}, first word {first}")\n```';
}

test('Continue this run replays a recorded run and answers the follow-up from its variables', { timeout: 300_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond: reply });
  t.after(() => server.close());
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-continue-ws-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  writeFileSync(join(workspace, 'notes.txt'), 'alpha beta\ngamma delta\n');
  const recorded = await runCli(['ask', 'notes.txt', '-q', 'What is the first word?', '--base-url', server.baseUrl, '--model', 'fake-model', '--trajectory', 'recorded.rlm.jsonl', '--quiet'], workspace);
  assert.equal(recorded.code, 0, recorded.stderr);
  const subBefore = server.completionRequests.filter((r) => !r.parsed?.system?.includes('persistent Python REPL')).length;
  assert.equal(subBefore, 1);

  const { workbench } = await openWorkbench(t, {
    workspace,
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': server.baseUrl, 'rlm.root.model': 'fake-model', 'rlm.confirmBeforeSending': false, 'rlm.trajectoriesInWorkspace': true },
  });
  await workbench.openFile('recorded.rlm.jsonl');
  const view = await workbench.getWebviewFrame('#run-header .reference-link', 60_000);
  await workbench.screenshot('recorded-run-with-continue-button');
  await view.locator('button', { hasText: 'Continue this run…' }).click();
  const input = workbench.page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill('What did the sub model say?');
  await workbench.page.keyboard.press('Enter');
  // The recorded input is shown, with the models that will be used, and read only once accepted.
  await workbench.page.locator('.monaco-dialog-box').waitFor({ state: 'visible', timeout: 30_000 });
  await workbench.screenshot('continue-confirms-the-recorded-input');
  const modal = await acceptModal(workbench, 'Read and continue');
  assert.match(modal, /notes\.txt \(\d+ B\)/);
  assert.match(modal, /Models from your settings \(fake-model\)/);

  const live = await workbench.getWebviewFrame('#run-header .badge:has-text("continued from")', 90_000);
  await live.locator('.status-badge', { hasText: 'Answered in' }).waitFor({ timeout: 90_000 });
  assert.match(await live.locator('.answer-body').innerText(), /Replayed: hello from the sub model, first word alpha/);
  const subAfter = server.completionRequests.filter((r) => !r.parsed?.system?.includes('persistent Python REPL')).length;
  assert.equal(subAfter, subBefore, 'the replayed sub-call was answered from the record');
  await live.locator('details.subcall > summary').first().click().catch(() => undefined);
  await workbench.screenshot('continued-run-answered');
  await live.locator('.badge', { hasText: 'replayed' }).first().waitFor({ timeout: 15_000 });
  const replayedCall = live.locator('summary.call-summary', { has: live.locator('.badge', { hasText: 'replayed' }) }).first();
  assert.match(await replayedCall.innerText(), /not sent, not billed/, 'a replayed sub-call says it was not billed');
  assert.doesNotMatch(await replayedCall.innerText(), /\$0\.00/, 'never "$0.00", which reads as a priced call');
  await workbench.screenshot('continued-run-replayed-subcall');

  // The parent is named by its question, never by its file's path, and the question opens it.
  const parent = live.locator('[data-testid="continued-from"]');
  assert.match(await parent.innerText(), /^Continued from “What is the first word\?”$/);
  await live.locator('[data-testid="open-parent"]').click();
  await workbench.page.locator('.part.editor .tabs-container .tab.active[aria-label*="recorded.rlm.jsonl"]').waitFor({ state: 'visible', timeout: 30_000 });
  await workbench.screenshot('parent-opened-from-its-question');
});
