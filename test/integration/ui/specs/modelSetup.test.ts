// "RLM: Configure models..." is one screen: the root and the sub model side by side, names picked
// from the server's own /v1/models list with their price, Save and test trying both models, and a
// cost limit offered. Driven against a local fake server speaking OpenAI's wire protocol.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import { openWorkbench } from '../../harness/openWorkbench';

test('one-screen model setup: pick root and sub from the server list, save and test both', { timeout: 300_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ models: ['big-coder', 'small-helper'], respond: () => 'OK' });
  t.after(() => server.close());
  const { workbench, codeServer } = await openWorkbench(t);
  await workbench.runCommandFromPalette('RLM: Configure models...');
  const page = await workbench.getWebviewFrame('[data-testid="root-endpoint"]', 60_000);
  const endpointLabels = await page.locator('[data-testid="root-endpoint"] option').allInnerTexts();
  for (const label of ['OpenAI', 'Anthropic', 'OpenRouter', 'Ollama', 'LM Studio', 'vLLM', 'Other OpenAI-compatible server']) {
    assert.ok(endpointLabels.includes(label), `${label} missing from ${endpointLabels.join(' | ')}`);
  }
  // Nothing configured yet: a cost limit is offered rather than left at "no limit".
  assert.equal(await page.locator('[data-testid="max-cost"]').inputValue(), '1');

  for (const role of ['root', 'sub'] as const) {
    if (role === 'sub') await page.locator('[data-testid="sub-separate"]').check();
    await page.locator(`[data-testid="${role}-endpoint"]`).selectOption('custom-openai');
    await page.locator(`[data-testid="${role}-url"]`).fill(server.baseUrl);
    await page.locator(`[data-testid="${role}-url"]`).press('Tab');
    await page.locator(`[data-testid="${role}-list-status"]`).filter({ hasText: '2 models listed by the server.' }).waitFor({ timeout: 30_000 });
    const listed = await page.locator(`#${role}-models option`).evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
    assert.deepEqual(listed, ['big-coder', 'small-helper']);
    await page.locator(`[data-testid="${role}-model"]`).fill(role === 'root' ? 'big-coder' : 'small-helper');
    assert.equal(await page.locator(`[data-testid="${role}-price"]`).innerText(), 'local (no charge)');
  }
  await workbench.screenshot('model-setup-filled');

  await page.locator('[data-testid="save"]').click();
  await page.locator('[data-testid="status"]').filter({ hasText: 'Saved: big-coder writes the code, small-helper answers sub-calls.' }).waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="root-result"]').filter({ hasText: /Connected to big-coder/ }).waitFor({ timeout: 60_000 });
  await page.locator('[data-testid="sub-result"]').filter({ hasText: /Connected to small-helper/ }).waitFor({ timeout: 60_000 });
  await workbench.screenshot('model-setup-saved-and-tested');
  const testedModels = server.completionRequests.map((r) => r.parsed?.model ?? '').sort();
  assert.deepEqual(testedModels, ['big-coder', 'small-helper'], 'Test connection tried both models');
  const settings = JSON.parse(readFileSync(join(codeServer.userDataDir, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
  assert.equal(settings['rlm.root.model'], 'big-coder');
  assert.equal(settings['rlm.root.baseUrl'], server.baseUrl);
  assert.equal(settings['rlm.sub.model'], 'small-helper');
  assert.equal(settings['rlm.maxCostUsd'], 1);

  // A model the server does not list can still be typed; a server that cannot list says so.
  await page.locator('[data-testid="sub-url"]').fill('http://127.0.0.1:1/v1');
  await page.locator('[data-testid="sub-url"]').press('Tab');
  await page.locator('[data-testid="sub-list-status"]').filter({ hasText: 'could not be reached. Type the model name instead.' }).waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="sub-model"]').fill('hand-typed-model');
  await page.locator('[data-testid="test"]').click();
  await page.locator('[data-testid="sub-result"]').filter({ hasText: '✗' }).waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('[data-testid="status"]').innerText(), '', 'the earlier "Saved" is not shown as this test\'s outcome');
  await workbench.screenshot('model-setup-unreachable-sub');
});
