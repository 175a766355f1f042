// The one-screen model setup with a model VS Code offers (here the test-only extension's, as Copilot's
// would be): with nothing configured it is the suggested root, it asks no key, its price reads
// "included in your plan" (never $0.00), it can be the root or the sub model, Test connection reaches
// it through VS Code's Language Model API, and the choice is saved as rlm.<role>.provider "vscode".
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import { packageFakeLanguageModelExtension } from '../../harness/fakeLanguageModelVsix';
import { openWorkbench } from '../../harness/openWorkbench';

test('model setup offers VS Code models for the root and the sub model, with no key, and tests them', { timeout: 300_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ models: ['big-coder'], respond: () => 'OK' });
  t.after(() => server.close());
  const { workbench, codeServer } = await openWorkbench(t, { extraVsix: [packageFakeLanguageModelExtension()] });
  const settings = (): Record<string, unknown> => JSON.parse(readFileSync(join(codeServer.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
  await workbench.runCommandFromPalette('RLM: Configure models...');
  const page = await workbench.getWebviewFrame('[data-testid="root-endpoint"]', 60_000);

  // Nothing configured and VS Code has a model: that is the suggestion, with no key field.
  await page.locator('[data-testid="root-list-status"]').filter({ hasText: '1 model listed by VS Code.' }).waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('[data-testid="root-endpoint"]').inputValue(), 'vscode');
  assert.equal(await page.locator('[data-testid="root-endpoint"] option:checked').innerText(), 'VS Code language models');
  assert.equal(await page.locator('[data-testid="root-model"]').inputValue(), 'rlm-test-model');
  assert.equal(await page.locator('[data-testid="root-key"]').isVisible(), false, 'no API key is asked for a VS Code model');
  assert.match(await page.locator('[data-testid="root-endpoint-hint"]').innerText(), /1 model from GitHub Copilot or another extension; no key, included in your plan/);
  assert.equal(await page.locator('[data-testid="root-price"]').innerText(), 'included in your plan');
  const offered = await page.locator('#root-models option').evaluateAll((options) => options.map((o) => `${(o as HTMLOptionElement).value} = ${o.textContent ?? ''}`));
  assert.deepEqual(offered, ['rlm-test-model = RLM Test Model · rlm-test · included in your plan']);

  // The sub model at an OpenAI-compatible server; the root stays on VS Code's model.
  await page.locator('[data-testid="sub-separate"]').check();
  await page.locator('[data-testid="sub-endpoint"]').selectOption('custom-openai');
  assert.equal(await page.locator('[data-testid="sub-key"]').isVisible(), true, 'a server still offers its key field');
  await page.locator('[data-testid="sub-url"]').fill(server.baseUrl);
  await page.locator('[data-testid="sub-url"]').press('Tab');
  await page.locator('[data-testid="sub-list-status"]').filter({ hasText: '1 model listed by the server.' }).waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="sub-model"]').fill('big-coder');
  await workbench.screenshot('model-setup-vscode-root');
  await page.locator('[data-testid="save"]').click();
  await page.locator('[data-testid="status"]').filter({ hasText: 'Saved: rlm-test-model writes the code, big-coder answers sub-calls.' }).waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="root-result"]').filter({ hasText: /Connected to rlm-test-model/ }).waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="sub-result"]').filter({ hasText: /Connected to big-coder/ }).waitFor({ timeout: 60_000 });
  await workbench.screenshot('model-setup-vscode-root-saved-and-tested');
  let saved = settings();
  assert.deepEqual([saved['rlm.root.provider'], saved['rlm.root.model'], saved['rlm.root.baseUrl']], ['vscode', 'rlm-test-model', '']);
  assert.deepEqual([saved['rlm.sub.provider'], saved['rlm.sub.model']], ['openai', 'big-coder']);

  // The other way round: VS Code's model answers the sub-calls.
  await page.locator('[data-testid="root-endpoint"]').selectOption('custom-openai');
  await page.locator('[data-testid="root-url"]').fill(server.baseUrl);
  await page.locator('[data-testid="root-url"]').press('Tab');
  await page.locator('[data-testid="root-list-status"]').filter({ hasText: '1 model listed by the server.' }).waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="root-model"]').fill('big-coder');
  await page.locator('[data-testid="sub-endpoint"]').selectOption('vscode');
  await page.locator('[data-testid="sub-list-status"]').filter({ hasText: '1 model listed by VS Code.' }).waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('[data-testid="sub-model"]').inputValue(), 'rlm-test-model');
  assert.equal(await page.locator('[data-testid="sub-price"]').innerText(), 'included in your plan');
  assert.equal(await page.locator('[data-testid="sub-key"]').isVisible(), false);
  await page.locator('[data-testid="test"]').click();
  await page.locator('[data-testid="sub-result"]').filter({ hasText: /✓ Connected to rlm-test-model/ }).waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="root-result"]').filter({ hasText: /✓ Connected to big-coder/ }).waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="save"]').click();
  await page.locator('[data-testid="status"]').filter({ hasText: 'Saved: big-coder writes the code, rlm-test-model answers sub-calls.' }).waitFor({ timeout: 30_000 });
  await workbench.screenshot('model-setup-vscode-sub');
  saved = settings();
  assert.deepEqual([saved['rlm.sub.provider'], saved['rlm.sub.model'], saved['rlm.sub.baseUrl']], ['vscode', 'rlm-test-model', '']);
  assert.equal(saved['rlm.root.provider'], 'openai');
});
