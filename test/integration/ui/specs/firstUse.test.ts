// First use with no model configured: the sidebar and the commands lead into "Configure models...",
// whose setup screen offers the presets. Nothing fails silently.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openWorkbench } from '../../harness/openWorkbench';

test('first use without a model leads into Configure models', { timeout: 240_000 }, async (t) => {
  const { workbench } = await openWorkbench(t);
  await workbench.runCommandFromPalette('RLM: Ask about the workspace');
  const toast = await workbench.waitForNotification(/No model is configured/, 60_000);
  await workbench.screenshot('no-model-notification');
  await toast.getByRole('button', { name: 'Configure models...' }).click();
  const setup = await workbench.getWebviewFrame('[data-testid="root-endpoint"]', 60_000);
  const labels = await setup.locator('[data-testid="root-endpoint"] option').allInnerTexts();
  for (const preset of ['OpenAI', 'Anthropic', 'OpenRouter', 'Ollama', 'LM Studio', 'vLLM']) {
    assert.ok(labels.some((l) => l.includes(preset)), `preset ${preset} missing from ${labels.join(' | ')}`);
  }
  await workbench.screenshot('configure-models-presets');

  await workbench.runCommandFromPalette('RLM: Focus on Chat View');
  const chat = await workbench.getWebviewFrame('[data-testid="no-model"]', 60_000);
  assert.match(await chat.locator('[data-testid="no-model"]').innerText(), /No model is configured/);
  await workbench.screenshot('sidebar-no-model');
});
