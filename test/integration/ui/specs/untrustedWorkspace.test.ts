// In an untrusted workspace asking is disabled, and both the command and the sidebar say why.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openWorkbench } from '../../harness/openWorkbench';

test('an untrusted workspace explains that asking is disabled and why', { timeout: 240_000 }, async (t) => {
  const { workbench } = await openWorkbench(t, { workspaceTrust: true, userSettings: { 'rlm.root.model': 'fake-model', 'rlm.root.baseUrl': 'http://127.0.0.1:9/v1' } });
  await workbench.runCommandFromPalette('RLM: Ask about the workspace');
  const toast = await workbench.waitForNotification(/not trusted/, 60_000);
  assert.match(await toast.innerText(), /Trust the workspace to ask questions/);
  assert.equal(await toast.getByRole('button', { name: 'Manage Workspace Trust' }).isVisible(), true);
  await workbench.screenshot('untrusted-notification');
  await workbench.runCommandFromPalette('RLM: Focus on Chat View');
  const chat = await workbench.getWebviewFrame('.banner.warning', 60_000);
  assert.match(await chat.locator('.banner.warning').innerText(), /Asking is disabled: this workspace is not trusted/);
  assert.equal(await chat.locator('[data-testid="send"]').getAttribute('disabled'), '');
  await workbench.screenshot('untrusted-sidebar');
});
