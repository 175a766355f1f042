// The trajectory view inside a real VS Code (code-server): recorded files open in the custom editor
// from Quick Open, a reference-format log through "Reopen Editor With...", the 5,000-cell file, and a
// file whose model and file text is hostile HTML. One workbench serves all four to spare CPU.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { openTrajectoryWriter } from '../../../../src/core/trajectory/trajectoryWriter';
import { generateTrajectory, syntheticHeader } from '../../../fixtures/trajectories/generate';
import { openWorkbench } from '../../harness/openWorkbench';
import { repoRoot } from '../../harness/outputPaths';
import type { Workbench } from '../../harness/workbench';
import { hostileEvents } from '../../../unit/webview/trajectory/runFixtures';

function writeWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-traj-ws-'));
  generateTrajectory(join(dir, 'small.rlm.jsonl'), { cells: 12, subCallsPerCell: 3, childEvery: 5, childTurns: 2 });
  generateTrajectory(join(dir, 'big.rlm.jsonl'), { cells: 5000, subCallsPerCell: 4 });
  copyFileSync(join(repoRoot, 'test', 'fixtures', 'trajectories', 'reference-nested.jsonl'), join(dir, 'reference-log.jsonl'));
  const events = hostileEvents();
  const first = events[0]!;
  const header = { ...syntheticHeader({ cells: 1, runId: 'xss-run' }), question: first.type === 'run.started' ? first.question : '' };
  const writer = openTrajectoryWriter(join(dir, 'hostile.rlm.jsonl'), header, { exclusive: false });
  for (const record of events) writer.write(record);
  writer.close();
  return dir;
}

async function closeAllEditors(workbench: Workbench): Promise<void> {
  await workbench.runCommandFromPalette('View: Close All Editors');
  await workbench.page.locator('iframe.webview.ready').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => undefined);
}

async function headerText(view: FrameLocator): Promise<string> {
  return view.locator('.run-header').innerText();
}

test('recorded, reference-format, 5,000-cell and hostile trajectories open in the trajectory editor', { timeout: 420_000 }, async (t) => {
  const workspace = writeWorkspace();
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  const { workbench } = await openWorkbench(t, { workspace });

  // A recorded run, opened from Quick Open: the custom editor is the default for *.rlm.jsonl.
  await workbench.openFile('small.rlm.jsonl');
  let view = await workbench.getWebviewFrame('.turn-slot.loaded section.cell', 60_000);
  assert.match(await headerText(view), /Answered in 12 turns/);
  assert.match(await headerText(view), /TURNS\s+12/i);
  assert.ok((await view.locator('details.subcall').count()) >= 3, 'the sub-call tree is shown');
  await view.locator('details.subcall.status-ok > summary', { hasText: 'rlm_query' }).first().click();
  await view.locator('.child-run .turn').first().waitFor({ timeout: 20_000 });
  await workbench.screenshot('recorded-file-with-child-run');
  await closeAllEditors(workbench);

  // A reference-format log: a plain .jsonl opens as text, then "Reopen Editor With..." the view.
  await workbench.openFile('reference-log.jsonl');
  await workbench.runCommandFromPalette('View: Reopen Editor With...');
  await workbench.page.locator('.quick-input-widget .monaco-list-row', { hasText: 'RLM Trajectory (reference rlm log)' }).first().click();
  view = await workbench.getWebviewFrame('.turn-slot.loaded section.cell', 60_000);
  await view.locator('.run-details > summary').click();
  assert.match(await headerText(view), /reference format/);
  await workbench.screenshot('reference-format-file');
  await closeAllEditors(workbench);

  // The 5,000-cell / 20,000-sub-call file.
  const opened = Date.now();
  await workbench.openFile('big.rlm.jsonl');
  view = await workbench.getWebviewFrame('.turn-slot.loaded section.cell', 120_000);
  t.diagnostic(`5,000-cell file: first cell on screen ${Date.now() - opened} ms after Quick Open (includes reading the file)`);
  // The first screen comes before the whole file is read: the header's figures are final once it is.
  await view.locator('[data-testid="outcome"]').filter({ hasNotText: 'Reading the file' }).waitFor({ timeout: 120_000 });
  assert.match(await headerText(view), /TURNS\s+5000/i);
  assert.match(await headerText(view), /SUB-CALLS\s+20,000/i);
  await view.locator('#turn-4999').waitFor({ state: 'attached', timeout: 60_000 });
  await view.locator('.outline-entry[data-index="4999"] button').click();
  await view.locator('#turn-4999.loaded section.cell').waitFor({ timeout: 30_000 });
  assert.ok((await view.locator('.turn-slot.loaded').count()) < 400, 'only turns near the viewport are rendered');
  await workbench.screenshot('big-file-last-turn');
  await closeAllEditors(workbench);

  // Hostile model and file text stays text.
  await workbench.openFile('hostile.rlm.jsonl');
  view = await workbench.getWebviewFrame('.turn-slot.loaded section.cell', 60_000);
  await view.locator('details.subcall > summary').first().click();
  await view.locator('.call-body').waitFor();
  assert.equal(await view.locator('img').count(), 0);
  assert.equal(await view.locator('#app script').count(), 0);
  assert.equal(await view.locator('[onerror]').count(), 0);
  const text = await view.locator('#app').innerText();
  assert.match(text, /Answer <script>window.__pwned = 1<\/script><img src=x onerror=/);
  assert.match(text, /Response <script>window.__pwned = 1<\/script>/);
  await workbench.screenshot('hostile-text-as-text');
});
