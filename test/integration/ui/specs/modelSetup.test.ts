// "RLM: Configure models..." is one screen: the root and the sub model side by side, names picked
// from the server's own /v1/models list with their price, Save and test trying both models, and a
// cost limit offered. Driven against a local fake server speaking OpenAI's wire protocol. No extension
// provides a VS Code language model here, and the screen says so.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
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
  // No extension provides a language model here: the VS Code choice is listed, is not the default,
  // and says plainly why it cannot be used and what to do.
  assert.ok(endpointLabels.includes('VS Code language models (none available)'), endpointLabels.join(' | '));
  assert.equal(await page.locator('[data-testid="root-endpoint"]').inputValue(), 'openai');
  // A server that lists its models slowly, left for VS Code's models before it answers: its late
  // answer must not overwrite what the page says about the choice now made.
  let slowAnswered!: () => void;
  const answered = new Promise<void>((resolve) => (slowAnswered = resolve));
  const slow = createServer((_req, res) => {
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'late-model', object: 'model', created: 0, owned_by: 'x' }] }), slowAnswered);
    }, 3000);
  });
  await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
  t.after(() => {
    slow.closeAllConnections();
    return new Promise<void>((resolve) => slow.close(() => resolve()));
  });
  await page.locator('[data-testid="root-endpoint"]').selectOption('custom-openai');
  await page.locator('[data-testid="root-url"]').fill(`http://127.0.0.1:${(slow.address() as AddressInfo).port}/v1`);
  await page.locator('[data-testid="root-url"]').press('Tab');
  await page.locator('[data-testid="root-list-status"]').filter({ hasText: 'for its models' }).waitFor({ timeout: 10_000 });
  await page.locator('[data-testid="root-endpoint"]').selectOption('vscode');
  await answered;
  await delay(1000);
  assert.match(await page.locator('[data-testid="root-list-status"]').innerText(), /VS Code offers no language model here/, 'a late model list of the endpoint left behind overwrote the status');
  assert.equal(await page.locator('#root-models option').count(), 0, 'a late model list of the endpoint left behind filled the list');
  await page.locator('[data-testid="root-list-status"]').filter({ hasText: 'VS Code offers no language model here. Install and sign in to GitHub Copilot Chat' }).waitFor({ timeout: 30_000 });
  assert.equal(await page.locator('[data-testid="root-key"]').isVisible(), false);
  assert.equal(await page.locator('[data-testid="root-model"]').inputValue(), '', 'no other endpoint\'s model name is left behind');
  await workbench.screenshot('model-setup-no-vscode-models');

  for (const role of ['root', 'sub'] as const) {
    if (role === 'sub') {
      // Ticked: the sub model starts as the root model as the form shows it, with the root's list and
      // no error (issue 31: it used to start as OpenAI with an instant red error).
      await page.locator('[data-testid="sub-separate"]').check();
      assert.equal(await page.locator('[data-testid="sub-endpoint"]').inputValue(), 'custom-openai');
      assert.equal(await page.locator('[data-testid="sub-url"]').inputValue(), server.baseUrl);
      assert.equal(await page.locator('[data-testid="sub-model"]').inputValue(), 'big-coder');
      const subStatus = page.locator('[data-testid="sub-list-status"]');
      assert.equal(await subStatus.innerText(), '2 models listed by the server.');
      assert.doesNotMatch((await subStatus.getAttribute('class')) ?? '', /bad/);
      assert.equal(await page.locator('[data-testid="sub-result"]').innerText(), '');
      assert.equal(await page.locator('#sub-models option').count(), 2, 'the root\'s listed models are offered for the copy');
      await workbench.screenshot('model-setup-sub-ticked-copies-root');
    }
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

  // "✓ Connected" is about the values tested: changing the URL clears it at once.
  await page.locator('[data-testid="sub-url"]').fill('http://127.0.0.1:1/v1');
  assert.equal(await page.locator('[data-testid="sub-result"]').innerText(), '', 'a "Connected" for the old URL stayed');
  assert.match(await page.locator('[data-testid="root-result"]').innerText(), /Connected to big-coder/, 'the root\'s outcome is about values unchanged');
  // A model the server does not list can still be typed; a server that cannot list says so.
  await page.locator('[data-testid="sub-url"]').press('Tab');
  await page.locator('[data-testid="sub-list-status"]').filter({ hasText: 'could not be reached. Type the model name instead.' }).waitFor({ timeout: 30_000 });
  await page.locator('[data-testid="sub-model"]').fill('hand-typed-model');
  await page.locator('[data-testid="test"]').click();
  await page.locator('[data-testid="sub-result"]').filter({ hasText: '✗' }).waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('[data-testid="status"]').innerText(), '', 'the earlier "Saved" is not shown as this test\'s outcome');
  await workbench.screenshot('model-setup-unreachable-sub');

  // Another provider: its own suggested model (or none), never the previous provider's name, and the
  // old outcome goes with the old provider.
  await page.locator('[data-testid="sub-endpoint"]').selectOption('anthropic');
  assert.equal(await page.locator('[data-testid="sub-model"]').inputValue(), 'claude-sonnet-4-5');
  // No key for Anthropic yet: what to do, not an error the user did not cause.
  const anthropicStatus = page.locator('[data-testid="sub-list-status"]').filter({ hasText: 'Enter the API key to see Anthropic\'s models' });
  await anthropicStatus.waitFor({ timeout: 30_000 });
  assert.doesNotMatch((await anthropicStatus.getAttribute('class')) ?? '', /bad/);
  assert.equal(await page.locator('[data-testid="sub-result"]').innerText(), '');
  await page.locator('[data-testid="root-endpoint"]').selectOption('lmstudio');
  assert.equal(await page.locator('[data-testid="root-model"]').inputValue(), '', 'big-coder was kept for LM Studio');
  assert.equal(await page.locator('[data-testid="root-result"]').innerText(), '');
  await workbench.screenshot('model-setup-provider-changed');
});
