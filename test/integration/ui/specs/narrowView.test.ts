// Issue 16, item 9: the view at any width. In a narrow editor group (about 220 px) the outline is a
// drawer, not half the width; the figures stack one per line; the answer and the code wrap inside the
// group instead of a word per line or clipped at the right edge; and widening the group lays it out again.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { generateTrajectory } from '../../../fixtures/trajectories/generate';
import { openWorkbench } from '../../harness/openWorkbench';

async function rootClasses(view: FrameLocator): Promise<string> {
  return (await view.locator('#app').getAttribute('class')) ?? '';
}

async function widthOf(view: FrameLocator, selector: string): Promise<number> {
  return view.locator(selector).first().evaluate((node) => node.getBoundingClientRect().width);
}

test('a recorded run in a narrow editor group: outline drawer, stacked figures, nothing clipped', { timeout: 300_000 }, async (t) => {
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-narrow-ws-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  generateTrajectory(join(workspace, 'run.rlm.jsonl'), { cells: 8, subCallsPerCell: 2 });
  const { workbench, page } = await openWorkbench(t, { workspace });
  await workbench.openFile('run.rlm.jsonl');
  let view = await workbench.getWebviewFrame('.turn-slot.loaded section.cell', 60_000);
  assert.doesNotMatch(await rootClasses(view), /\bnarrow\b/, 'wide at first');

  // Three groups side by side in a small window, with the side bar closed: each is about 220 px.
  await workbench.runCommandFromPalette('View: Close Primary Side Bar');
  await page.setViewportSize({ width: 760, height: 900 });
  await workbench.runCommandFromPalette('View: Split Editor Right');
  await workbench.runCommandFromPalette('View: Split Editor Right');
  view = await workbench.getWebviewFrame('#app.compact .turn-slot.loaded section.cell', 60_000);
  // Every group shows the run before the screenshots: the newest one's webview is still loading for a
  // moment after the split, and a picture with an empty group would show nothing about that group.
  const groups = page.frameLocator('iframe.webview.ready');
  const shown = async (): Promise<number> => {
    let count = 0;
    for (let i = 0; i < (await page.locator('iframe.webview.ready').count()); i++) {
      if ((await groups.nth(i).frameLocator('iframe#active-frame').locator('#app.compact .turn-slot.loaded section.cell').count().catch(() => 0)) > 0) count++;
    }
    return count;
  };
  for (const end = Date.now() + 30_000; (await shown()) < 3 && Date.now() < end; ) await page.waitForTimeout(200);
  assert.equal(await shown(), 3, 'the run shows in all three groups');
  const width = await widthOf(view, '#app');
  assert.ok(width > 150 && width < 300, `the group is narrow (${width} px)`);
  assert.match(await rootClasses(view), /\bnarrow\b.*\bcompact\b|\bcompact\b.*\bnarrow\b/);

  // The outline is not a column: the turns get the whole width, and the toolbar opens it as a drawer.
  assert.equal(await view.locator('.outline').first().isVisible(), false, 'the outline is closed');
  const scroller = await widthOf(view, '#scroller');
  assert.ok(scroller > width * 0.9, `the turns take the width (${scroller} of ${width} px)`);
  await workbench.screenshot('narrow-group');

  // The answer wraps in lines of several words, not a word per line.
  const answer = view.locator('.answer').first();
  if (await answer.count()) {
    const box = await answer.evaluate((node) => ({ width: node.getBoundingClientRect().width, height: node.getBoundingClientRect().height }));
    assert.ok(box.width > width * 0.8, `the answer is as wide as the group (${box.width} px)`);
  }
  // Code wraps inside the group: no line runs past the right edge unseen.
  const overflow = await view.locator('section.cell .code-block').evaluateAll((nodes) => nodes.map((n) => n.scrollWidth - n.clientWidth));
  assert.ok(overflow.length > 0 && overflow.every((px) => px <= 1), `code wraps within the group (overflow ${overflow.join(', ')} px)`);

  // The figures stack one per line, label beside value.
  const stats = await view.locator('.stats .stat').evaluateAll((nodes) => nodes.map((n) => Math.round(n.getBoundingClientRect().left)));
  assert.equal(new Set(stats).size, 1, 'one figure per line');

  // The drawer opens over the turns and closes when a turn is picked.
  await view.getByRole('button', { name: 'Toggle outline' }).click();
  await view.locator('.outline').first().waitFor({ state: 'visible', timeout: 10_000 });
  await workbench.screenshot('narrow-group-outline-drawer');
  await view.locator('.outline .outline-item').nth(2).click();
  await view.locator('.outline').first().waitFor({ state: 'hidden', timeout: 10_000 });

  // Back to one group in a wide window: the outline is a column again.
  await page.setViewportSize({ width: 1400, height: 900 });
  await workbench.runCommandFromPalette('View: Join All Editor Groups');
  await page.waitForTimeout(1500);
  view = await workbench.getWebviewFrame('#app:not(.narrow) .turn-slot.loaded section.cell', 60_000);
  assert.equal(await view.locator('.outline').first().isVisible(), true, 'the outline is a column again');
  await workbench.screenshot('wide-again');
});
