// Issue 31, item 1: the Getting Started walkthrough's illustrations are drawn (not one flat colour, as
// when their CSS was blocked by the page's content security policy) in the light, dark and
// high-contrast themes, in the theme's own colours; and step 3 ticks when a recorded run is opened
// by a route other than the step's own button (Quick Open).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { generateTrajectory } from '../../../fixtures/trajectories/generate';
import { openWorkbench } from '../../harness/openWorkbench';
import { screenshotsDir } from '../../harness/outputPaths';
import { colourCounts, decodePng, luminance } from '../../harness/pngPixels';
import type { Workbench } from '../../harness/workbench';

const STEPS = ['configureModels', 'askAboutFile', 'openRecordedRun'];
const THEMES = [
  { label: 'Light Modern', background: (l: number) => l > 0.6, foreground: (l: number) => l < 0.2 },
  { label: 'Dark Modern', background: (l: number) => l < 0.1, foreground: (l: number) => l > 0.4 },
  { label: 'Dark High Contrast', background: (l: number) => l < 0.01, foreground: (l: number) => l > 0.9 },
];

function step(workbench: Workbench, id: string) {
  return workbench.page.locator(`button.getting-started-step[data-step-id$="#${id}"]`);
}

/** Picks the quick pick row whose label is exactly `label` with the keyboard (a hover can cover the rows). */
async function pickRow(workbench: Workbench, label: string): Promise<void> {
  const page = workbench.page;
  await page.locator('.quick-input-widget .quick-input-box input').fill(label);
  const rows = page.locator('.quick-input-widget .quick-input-list .monaco-list-row');
  await rows.filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first().waitFor({ timeout: 10_000 });
  for (let i = 0; i < 20; i++) {
    const focused = (await rows.and(page.locator('.focused')).locator('.label-name').first().innerText().catch(() => '')).trim();
    if (focused === label) break;
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: 10_000 });
}

async function openWalkthrough(workbench: Workbench): Promise<void> {
  await workbench.openQuickPickFromPalette('Welcome: Open Walkthrough...');
  await pickRow(workbench, 'Get started with RLM');
  await step(workbench, STEPS[0]!).waitFor({ timeout: 30_000 });
  // VS Code expands the first step itself, a moment after the list shows (and disables the button of an
  // expanded step): wait for that, so that no click below races it.
  await workbench.page.locator('button.getting-started-step[aria-expanded="true"]').first().waitFor({ timeout: 10_000 }).catch(() => undefined);
}

async function pickTheme(workbench: Workbench, label: string): Promise<void> {
  await workbench.openQuickPickFromPalette('Preferences: Color Theme');
  await pickRow(workbench, label);
}

/** The step's illustration, once the walkthrough's media webview shows it (its aria-label is the step's). */
async function illustration(workbench: Workbench, id: string): Promise<FrameLocator> {
  // A person clicks a step to see it; the one already expanded shows its drawing and cannot be clicked.
  if ((await step(workbench, id).getAttribute('aria-expanded')) !== 'true') await step(workbench, id).click();
  const marker = { configureModels: 'Configure models', askAboutFile: 'log', openRecordedRun: 'recorded run' }[id]!;
  return workbench.getWebviewFrame(`svg[role="img"][aria-label*="${marker}"]`, 30_000);
}

test('the walkthrough draws its illustrations in light, dark and high contrast, and step 3 ticks on opening a run', { timeout: 360_000 }, async (t) => {
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-walkthrough-ws-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  generateTrajectory(join(workspace, 'earlier.rlm.jsonl'), { cells: 3, subCallsPerCell: 1 });
  // Opened in the first theme looked at: the step VS Code expands at once is then drawn in that theme,
  // with no theme change under it (a drawing shot just after one could still be blank).
  const { workbench } = await openWorkbench(t, { workspace, userSettings: { 'workbench.colorTheme': 'Default Light Modern' } });
  await openWalkthrough(workbench);
  mkdirSync(screenshotsDir(), { recursive: true });

  for (const theme of THEMES) {
    if (theme !== THEMES[0]) await pickTheme(workbench, theme.label);
    for (const id of STEPS) {
      const frame = await illustration(workbench, id);
      const svg = frame.locator('svg[role="img"]');
      // VS Code re-renders the media on a theme change: wait until it carries the new theme's colours.
      const colours = await svg.evaluate((node) => {
        // The theme's editor background, resolved by the page the way the SVG's var() is.
        const span = document.createElement('span');
        span.style.color = 'var(--vscode-editor-background)';
        document.body.append(span);
        const themeBackground = getComputedStyle(span).color;
        span.remove();
        return { panel: getComputedStyle(node.querySelector('rect')!).fill, text: getComputedStyle(node.querySelector('text')!).fill, themeBackground };
      });
      assert.equal(colours.panel, colours.themeBackground, `${theme.label} ${id}: the panel is the theme's editor background`);
      assert.ok(theme.background(luminance(colours.panel)), `${theme.label} ${id}: background ${colours.panel}`);
      assert.ok(theme.foreground(luminance(colours.text)), `${theme.label} ${id}: text ${colours.text}`);

      const png = await svg.screenshot();
      writeFileSync(join(screenshotsDir(), `walkthrough-image-${theme.label.replace(/\W+/g, '-')}-${id}.png`), png);
      const pixels = decodePng(png);
      const counts = colourCounts(pixels);
      const total = pixels.width * pixels.height;
      const dominant = counts[0]!;
      const visible = counts.filter((c) => c.count >= total * 0.002);
      const contrasted = counts.filter((c) => Math.abs(luminance(c.colour) - luminance(dominant.colour)) > 0.3).reduce((n, c) => n + c.count, 0);
      t.diagnostic(`${theme.label} ${id}: ${counts.length} colours, dominant ${dominant.colour} ${((100 * dominant.count) / total).toFixed(1)} %, ${visible.length} visible, ${((100 * contrasted) / total).toFixed(1)} % contrasting`);
      // High contrast is black with outlines by design, and the image box includes the page around the drawing.
      assert.ok(dominant.count < total * 0.97, `${theme.label} ${id}: ${dominant.colour} covers ${dominant.count} of ${total} pixels`);
      assert.ok(visible.length >= 2, `${theme.label} ${id}: only ${visible.length} colour covers more than 0.2 % each`);
      assert.ok(contrasted > total * 0.003, `${theme.label} ${id}: text and shapes stand out from the background (${contrasted} pixels)`);
    }
    await workbench.screenshot(`walkthrough-${theme.label}`);
  }

  // Step 3 ticks whatever route opened the run: here Quick Open, not the step's own button.
  assert.equal(await step(workbench, 'openRecordedRun').getAttribute('aria-checked'), 'false');
  await workbench.openFile('earlier.rlm.jsonl');
  await workbench.getWebviewFrame('.turn-slot.loaded section.cell', 60_000);
  await workbench.page.locator('.tabs-container .tab', { hasText: 'Walkthrough' }).first().click();
  await step(workbench, 'openRecordedRun').and(workbench.page.locator('[aria-checked="true"]')).waitFor({ timeout: 30_000 });
  await workbench.screenshot('walkthrough-step-3-ticked');
});
