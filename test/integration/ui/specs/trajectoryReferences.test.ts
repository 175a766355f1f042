// The answer's references in a real VS Code: clicking one opens the file at the cited line; in a 20 MB
// file (too large to open whole) it opens a read-only slice around the line. Unresolved citations are
// listed apart and marked.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openTrajectoryWriter } from '../../../../src/core/trajectory/trajectoryWriter';
import type { EventRecord } from '../../../../src/core/trajectory/events';
import { syntheticEvents, syntheticHeader } from '../../../fixtures/trajectories/generate';
import { openWorkbench } from '../../harness/openWorkbench';

const BIG_LINE = 300_000;

function writeWorkspace(): string {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-refs-ws-'));
  mkdirSync(join(dir, 'notes'));
  writeFileSync(join(dir, 'notes', 'small.txt'), Array.from({ length: 400 }, (_, i) => (i + 1 === 120 ? 'the retry limit is set to 7 here' : `note line ${i + 1}`)).join('\n') + '\n');
  const big: string[] = [];
  for (let i = 1; i <= 400_000; i++) big.push(i === BIG_LINE ? 'ERROR payment gateway timeout after 30s (the needle)' : `INFO request ${i} served in ${i % 97} ms ok`);
  writeFileSync(join(dir, 'big.log'), `${big.join('\n')}\n`);
  const events = [...syntheticEvents({ cells: 1, runId: 'refs-run' })];
  const finished = events.findIndex((e) => e.type === 'run.finished');
  const last = events[finished]!;
  const references: EventRecord = {
    type: 'references',
    runId: 'refs-run',
    seq: last.seq,
    ts: last.ts,
    references: [
      { path: 'notes/small.txt', line: 120, text: 'the retry limit is set to 7 here' },
      { path: 'big.log', line: BIG_LINE, text: 'ERROR payment gateway timeout after 30s (the needle)' },
    ],
    unresolved: [{ citation: 'src/missing.ts:12', path: 'src/missing.ts', line: 12, reason: 'unknown-path', detail: 'no file src/missing.ts in the context' }],
  };
  // Coverage as the loop records it: a few runs of lines seen, the two cited lines' runs marked.
  // 120 buckets that add up to the file's 400,400 lines (40 of 3,336 and 80 of 3,337), as the loop's are.
  const buckets = Array.from({ length: 120 }, (_, i) => ({ lines: i < 40 ? 3336 : 3337, cell: i % 17 === 3 ? 40 : 0, subcall: i >= 60 && i < 66 ? 3337 : 0, cited: i === 0 || i === 89 ? 1 : 0 }));
  const coverage: EventRecord = { type: 'coverage', runId: 'refs-run', seq: last.seq, ts: last.ts, coverage: { totalLines: 400_400, buckets, files: [{ path: 'notes/small.txt', firstLine: 1, lines: 400 }, { path: 'big.log', firstLine: 401, lines: 400_000 }], seenLines: 20_502, citedLines: 2 } };
  const writer = openTrajectoryWriter(join(dir, 'cited.rlm.jsonl'), syntheticHeader({ cells: 1, runId: 'refs-run' }), { exclusive: false });
  for (const record of [...events.slice(0, finished), references, { ...coverage, seq: last.seq + 1 }, { ...last, seq: last.seq + 2 }]) writer.write(record);
  writer.close();
  return dir;
}

test('a reference in the answer opens its file at the line, and a 20 MB file as a read-only slice', { timeout: 300_000 }, async (t) => {
  const workspace = writeWorkspace();
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  const { workbench } = await openWorkbench(t, { workspace });
  const { page } = workbench;

  await workbench.openFile('cited.rlm.jsonl');
  const view = await workbench.getWebviewFrame('.references .reference-link', 60_000);
  assert.deepEqual(await view.locator('.references .reference-list:not(.unresolved) .reference-link').allInnerTexts(), ['notes/small.txt:120', `big.log:${BIG_LINE}`]);
  assert.match(await view.locator('.reference-list.unresolved').innerText(), /src\/missing\.ts:12 — no file src\/missing\.ts in the context/);
  assert.equal(await view.locator('.coverage-strip .coverage-cell').count(), 120);
  assert.equal(await view.locator('.coverage-strip .coverage-cell.cited').count(), 2);
  const legend = await view.locator('.coverage-legend').innerText();
  // The legend's share is of the lines the buckets count (here all of them, so none is "not counted").
  assert.match(legend, /5\.1% of 400,400 lines seen in cell output or sub-call prompts/);
  assert.match(legend, /\d+ lines? cited by the answer/);
  assert.match(legend, /never shown to a model/);
  assert.equal(await view.locator('.coverage-legend .coverage-swatch').count(), 3, 'a swatch for each state of the strip');
  await workbench.screenshot('references-under-answer');

  await view.locator('.references .reference-list:not(.unresolved) .reference-link', { hasText: 'notes/small.txt:120' }).click();
  await page.locator('.tab.active', { hasText: 'small.txt' }).waitFor({ timeout: 30_000 });
  await page.locator('.statusbar-item', { hasText: /Ln 120, Col/ }).first().waitFor({ timeout: 15_000 });
  await page.locator('.monaco-editor .view-line', { hasText: 'the retry limit is set to 7 here' }).waitFor({ timeout: 15_000 });
  await workbench.screenshot('small-file-opened-at-line-120');

  await workbench.runCommandFromPalette('View: Close Editor');
  const frame = await workbench.getWebviewFrame('.references .reference-link', 30_000);
  await frame.locator('.references .reference-list:not(.unresolved) .reference-link', { hasText: `big.log:${BIG_LINE}` }).click();
  await page.locator('.tab.active', { hasText: `big.log (around line ${BIG_LINE})` }).waitFor({ timeout: 60_000 });
  await page.locator('.monaco-editor .view-line', { hasText: 'ERROR payment gateway timeout after 30s (the needle)' }).waitFor({ timeout: 30_000 });
  // The slice says which lines of the file it holds; the selection is on the cited line.
  const selectedStatus = await page.locator('.statusbar-item', { hasText: /Ln \d+, Col/ }).first().innerText();
  assert.match(selectedStatus, /Ln 302, Col/);
  await workbench.screenshot('big-file-slice-around-line');
  await page.keyboard.press('Control+Home');
  await page.locator('.monaco-editor .view-line', { hasText: `[lines ${BIG_LINE - 300}-${BIG_LINE + 300} of` }).waitFor({ timeout: 15_000 });
  await workbench.screenshot('big-file-slice-header');
});
