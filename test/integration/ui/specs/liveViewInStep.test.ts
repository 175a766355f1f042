// Issue 31, item 2: the live trajectory view keeps up with the run. A slow scripted run (sub-calls one
// after another, a pause between turns) is sampled many times: the view's live line and the status
// bar's, read back to back, agree within one event; and the view shows the run's header and first turn
// as soon as the run has them (the delays are reported).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { statusBarText } from '../../harness/chatDriver';
import { openWorkbench } from '../../harness/openWorkbench';

const TURNS = 5;
const SUBS_PER_TURN = 4;
const isRoot = (r: FakeModelRequest): boolean => !!r.system?.includes('persistent Python REPL');

function respond(request: FakeModelRequest): FakeResponse {
  if (!isRoot(request)) return { text: 'ok', latencyMs: 500 };
  const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
  if (turn > TURNS) return { text: 'FINAL(done)', latencyMs: 800 };
  return { text: `Turn ${turn}.\n\`\`\`repl\nfor i in range(${SUBS_PER_TURN}):\n    print(llm_query(f"part {i} of turn ${turn}"))\n\`\`\``, latencyMs: 800 };
}

interface Figures {
  turn: number;
  subCalls: number;
}

/** "turn 3 · 12 sub-calls · …" or "starting · 0 sub-calls · …" → figures; undefined when there is no line. */
function figuresOf(line: string): Figures | undefined {
  const subs = /(\d+) sub-calls?/.exec(line);
  if (!subs) return undefined;
  const turn = /turn (\d+)/.exec(line);
  return { turn: turn ? Number(turn[1]) : 0, subCalls: Number(subs[1]) };
}

const within = (value: number, a: number, b: number): boolean => value >= Math.min(a, b) - 1 && value <= Math.max(a, b) + 1;

test('the live view and the status bar agree within one event throughout a slow run', { timeout: 360_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond });
  t.after(() => server.close());
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-live-step-ws-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  writeFileSync(join(workspace, 'notes.txt'), 'alpha beta\ngamma delta\n');
  const { workbench, page } = await openWorkbench(t, {
    workspace,
    userSettings: {
      'rlm.root.provider': 'openai',
      'rlm.root.baseUrl': server.baseUrl,
      'rlm.root.model': 'fake-model',
      'rlm.confirmBeforeSending': false,
      'rlm.subCallCache.enabled': false,
    },
  });
  await workbench.openFile('notes.txt');
  await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill('Go slowly through the notes');
  const asked = Date.now();
  await page.keyboard.press('Enter');

  const view = await workbench.getWebviewFrame('#run-header', 60_000);
  const headerShownMs = Date.now() - asked;
  const viewLine = view.locator('[data-testid="live-figures"]');

  // The first turn: once the status bar counts turn 1, the view shows that turn's slot.
  let statusTurnOneAt = 0;
  while (Date.now() - asked < 90_000) {
    if ((figuresOf(await statusBarText(workbench))?.turn ?? 0) >= 1) {
      statusTurnOneAt = Date.now();
      break;
    }
    await page.waitForTimeout(20);
  }
  assert.ok(statusTurnOneAt, 'the status bar reached turn 1');
  await view.locator('.turn-slot').first().waitFor({ timeout: 10_000 });
  const firstTurnLagMs = Date.now() - statusTurnOneAt;
  await workbench.screenshot('first-turn');

  const samples: Array<{ before: Figures; view: Figures; after: Figures }> = [];
  while (samples.length < 60) {
    const before = figuresOf(await statusBarText(workbench));
    const shown = figuresOf(await viewLine.innerText({ timeout: 2000 }).catch(() => ''));
    const after = figuresOf(await statusBarText(workbench));
    if (!before || !after || !shown) break; // the run ended: the live lines are gone
    samples.push({ before, view: shown, after });
    await page.waitForTimeout(150);
  }
  await workbench.screenshot('sampled');
  t.diagnostic(`view header after ${headerShownMs} ms; first turn drawn ${firstTurnLagMs} ms after the status bar counted it; ${samples.length} samples`);
  t.diagnostic(samples.map((s) => `sb ${s.before.turn}/${s.before.subCalls} view ${s.view.turn}/${s.view.subCalls} sb ${s.after.turn}/${s.after.subCalls}`).join('; '));
  assert.ok(samples.length >= 8, `only ${samples.length} samples while the run went: it ran too fast to test`);
  assert.ok(new Set(samples.map((s) => s.view.subCalls)).size >= 4, 'the view counted sub-calls as they happened');
  for (const [i, s] of samples.entries()) {
    assert.ok(within(s.view.turn, s.before.turn, s.after.turn), `sample ${i}: the view says turn ${s.view.turn}, the status bar ${s.before.turn}..${s.after.turn}`);
    assert.ok(within(s.view.subCalls, s.before.subCalls, s.after.subCalls), `sample ${i}: the view says ${s.view.subCalls} sub-calls, the status bar ${s.before.subCalls}..${s.after.subCalls}`);
  }
  await view.locator('.status-badge.status-completed').waitFor({ timeout: 60_000 });
  assert.equal(await view.locator('.turn-slot').count(), TURNS + 1);
});
