// A Jupyter notebook asked about from the palette in the real VS Code: the notebook is open in the
// notebook editor with an edit not yet saved; "Ask RLM about this file" reads the editor's cells (the
// unsaved line included), the answer comes back, and its reference `analysis.ipynb#cell=2:2` opens the
// notebook at cell 2 with that line selected. (`answer` is a name of the REPL's API, so the scripted
// model uses `found`.)
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { openWorkbench } from '../../harness/openWorkbench';

const NOTEBOOK = {
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' }, language_info: { name: 'python' } },
  cells: [
    { cell_type: 'markdown', metadata: {}, source: ['# Sales analysis\n', 'Revenue by region, from the March export.'] },
    {
      cell_type: 'code',
      execution_count: 1,
      metadata: {},
      source: ['import pandas as pd\n', "sales = pd.read_csv('sales-march.csv')\n", 'sales.groupby("region").revenue.sum()'],
      outputs: [{ output_type: 'execute_result', execution_count: 1, metadata: {}, data: { 'text/plain': ['region\n', 'north    1200\n', 'south     800'] } }],
    },
    { cell_type: 'code', execution_count: null, metadata: {}, source: ['# totals by month go here'], outputs: [] },
  ],
};

function respond(request: FakeModelRequest): string {
  if (request.messages.some((m) => m.role === 'assistant')) return 'Read the cells.\nFINAL_VAR(found)';
  return (
    '```repl\n' +
    "unsaved = 'unsaved_total = 42' in context\n" +
    "found = f\"The data is read from sales-march.csv at analysis.ipynb#cell=2:2 (the notebook as the editor holds it; unsaved edit seen: {unsaved}).\"\n" +
    'print(found)\n```'
  );
}

test('a notebook with an unsaved edit is asked about from the palette, and its reference opens the notebook at the cell', { timeout: 420_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond });
  t.after(() => server.close());
  const { workbench, codeServer } = await openWorkbench(t, {
    userSettings: { 'files.autoSave': 'off', 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': server.baseUrl, 'rlm.root.model': 'fake-model' },
  });
  const { page } = workbench;
  writeFileSync(join(codeServer.workspace, 'analysis.ipynb'), JSON.stringify(NOTEBOOK, null, 1));

  await workbench.openFile('analysis.ipynb');
  const lastCell = page.locator('.notebook-editor .monaco-list-row').filter({ hasText: 'totals by month go here' }).first();
  await lastCell.waitFor({ state: 'visible', timeout: 60_000 });
  // An edit not saved: the file on disk does not hold it, the editor's cell does.
  // The cell's editor can still be laying out when the row shows, and a click then selects the cell
  // without focusing its editor: click again until the editor has the focus.
  for (let attempt = 1; ; attempt++) {
    await lastCell.locator('.view-lines').first().click();
    const focused = await lastCell.locator('.monaco-editor.focused').waitFor({ timeout: 5_000 }).then(() => true, () => false);
    if (focused) break;
    if (attempt === 4) throw new Error("the notebook cell's editor did not take the focus after 4 clicks");
  }
  await page.keyboard.press('Control+End');
  await page.keyboard.press('Enter');
  await page.keyboard.type('unsaved_total = 42');
  await page.keyboard.press('Escape');
  await lastCell.locator('.view-line', { hasText: 'unsaved_total = 42' }).waitFor({ timeout: 15_000 });
  await workbench.screenshot('notebook-with-unsaved-edit');

  await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
  await page.locator('.quick-input-widget').filter({ hasText: 'Ask RLM about analysis.ipynb' }).waitFor({ state: 'visible', timeout: 30_000 });
  await page.locator('.quick-input-widget input').fill('Where does the sales data come from?');
  await page.locator('.quick-input-widget input').press('Enter');
  const toast = await workbench.waitForNotification(/The data is read from sales-march\.csv/, 180_000);
  assert.match(await toast.innerText(), /analysis\.ipynb#cell=2:2 .*unsaved edit seen: True/);
  assert.ok(!readFileSync(join(codeServer.workspace, 'analysis.ipynb'), 'utf8').includes('unsaved_total'), 'the edit is not on disk: the answer read the editor');
  await workbench.screenshot('notebook-answered');

  const view = await workbench.getWebviewFrame('.references .reference-link', 120_000);
  assert.deepEqual(await view.locator('.references .reference-list:not(.unresolved) .reference-link').allInnerTexts(), ['analysis.ipynb#cell=2:2']);
  assert.match(await view.locator('.reference-text').first().innerText(), /sales = pd\.read_csv\('sales-march\.csv'\)/);
  // The header names the input's format, in sight beside what was asked about.
  await view.locator('[data-testid="target"]', { hasText: /^About .*analysis\.ipynb.* · a Jupyter notebook \(python\), 3 cells: 2 code, 1 markdown$/ }).waitFor({ state: 'visible', timeout: 30_000 });
  await workbench.screenshot('notebook-reference-under-answer');

  await view.locator('.references .reference-link', { hasText: 'analysis.ipynb#cell=2:2' }).first().click();
  await page.locator('.tab.active', { hasText: 'analysis.ipynb' }).first().waitFor({ timeout: 30_000 });
  // Cell 2 is the selected cell and its second line is selected in its editor.
  const selectedCell = page.locator('.notebook-editor .monaco-list-row.selected, .notebook-editor .monaco-list-row.focused').filter({ hasText: 'read_csv' });
  await selectedCell.first().waitFor({ timeout: 30_000 });
  await selectedCell.first().locator('.selected-text').first().waitFor({ timeout: 15_000 });
  // The notebook's own editor, in sight beside the view, is where the cell opened: not a second tab
  // of it under the view (which would hide the answer).
  assert.equal(await page.locator('.tab', { hasText: 'analysis.ipynb' }).count(), 1, 'the notebook opened once, in its own editor');
  await workbench.screenshot('notebook-opened-at-cell-2-line-2');
});
