// A provider batch in the live trajectory view (rlm.subCallBatch "always"), against a fake OpenAI
// server whose batch stays in progress for minutes: the cell shows the batch waiting with its counts,
// the elapsed time counting on between polls and the batch price named; Stop cancels it and the cell
// says how many of its requests had already run and are billed.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { openWorkbench } from '../../harness/openWorkbench';

const FAN_OUT = 'I will ask about each line.\n```repl\nanswers = llm_query_batched([f"Summarise line {i}: {line}" for i, line in enumerate(context.splitlines())])\nprint(answers)\n```';

function reply(request: FakeModelRequest): FakeResponse {
  const conversation = request.messages.map((m) => m.content).join('\n');
  if (/single word OK/.test(conversation)) return 'OK';
  const last = request.messages.at(-1)?.content ?? '';
  if (last.startsWith('Summarise line')) return `summary of ${last.slice(0, 20)}`;
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  return turn === 0 ? FAN_OUT : 'FINAL(done)';
}

test('a waiting provider batch shows in its cell, counts on, and says what was billed after Stop', { timeout: 420_000 }, async (t) => {
  // Requests of the batch finish evenly over 10 minutes: each poll finds a few more done.
  const server = await startFakeOpenAIServer({ respond: reply, batches: { processingMs: 600_000 } });
  t.after(() => server.close());
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-batch-ws-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  writeFileSync(join(workspace, 'notes.txt'), `${Array.from({ length: 200 }, (_, i) => `line ${i} of the notes`).join('\n')}\n`);
  const { workbench } = await openWorkbench(t, {
    workspace,
    userSettings: {
      'rlm.root.provider': 'openai',
      'rlm.root.baseUrl': server.baseUrl,
      'rlm.root.model': 'fake-model',
      'rlm.confirmBeforeSending': false,
      'rlm.trajectoriesInWorkspace': true,
      'rlm.subCallBatch': 'always',
    },
  });

  await workbench.openFile('notes.txt');
  await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
  const input = workbench.page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill('Summarise each line');
  await workbench.page.keyboard.press('Enter');

  const live = await workbench.getWebviewFrame('#run-header', 90_000);
  const batch = live.locator('[data-testid="provider-batch"]');
  await batch.first().waitFor({ timeout: 120_000 });
  // Wait for a poll that found some requests done (the first polls come 2 s, 3 s, 4.5 s … apart).
  await live.locator('[data-testid="provider-batch"][data-batch-state="waiting"]', { hasText: /[1-9]\d* of 200 requests done/ }).waitFor({ timeout: 60_000 });
  const first = await batch.innerText();
  assert.match(first, /OpenAI batch batch_\w+: \d+ of 200 requests done; waiting \(in_progress\), [\d.]+ (s|min)/);
  assert.match(first, /Billed at the batch price: half the ordinary price on OpenAI's Batch API/);
  // The elapsed time counts on between polls.
  const elapsed = async (): Promise<string> => /waiting \(in_progress\), (.+?) so far/.exec(await batch.innerText())?.[1] ?? '';
  const before = await elapsed();
  await workbench.page.waitForTimeout(1_500);
  assert.notEqual(await elapsed(), before, 'the elapsed time moved on');
  await batch.evaluate((e) => e.scrollIntoView({ block: 'center' }));
  await workbench.screenshot('provider-batch-waiting');

  await live.getByRole('button', { name: 'Stop the run' }).click();
  const stopped = live.locator('[data-testid="provider-batch"][data-batch-state="cancelled"]');
  await stopped.waitFor({ timeout: 60_000 });
  assert.match(await stopped.innerText(), /cancelled after [\d.]+ (s|min)[^;]*; \d+ already run and billed at the batch price/);
  assert.ok(server.requests.some((r) => r.method === 'POST' && r.path.endsWith('/cancel')), 'the provider batch was cancelled');
  await stopped.evaluate((e) => e.scrollIntoView({ block: 'center' }));
  await workbench.screenshot('provider-batch-cancelled');
});
