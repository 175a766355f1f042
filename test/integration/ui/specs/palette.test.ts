// The packaged extension shows up where a user looks first: the command palette.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openWorkbench } from '../../harness/openWorkbench';

test('the command palette lists "RLM: Ask RLM about this file"', { timeout: 180_000 }, async (t) => {
  const { workbench } = await openWorkbench(t);
  await workbench.screenshot('workbench-open');
  await workbench.openFile('logs/service.log');
  await workbench.screenshot('log-file-open');
  const entry = await workbench.findPaletteEntry('RLM: Ask RLM about this file');
  assert.equal(await entry.isVisible(), true);
  await workbench.screenshot('palette-lists-ask-about-file');
  const labels = await workbench.page.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts();
  assert.ok(labels.some((label) => label.startsWith('RLM: ')), `no RLM command in the palette: ${labels.join(' | ')}`);
});
