// Issue 20 in VS Code: what caching saved is in front. A priced model behind a prompt cache shows its
// cached tokens and the money they saved on the live line (status bar, chat, view) and in the view's
// header; a recorded run marks a sub-call answered from the sub-call cache as "cached" and shows a
// large batch's cost estimate in its cell.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { askInChat, chatEntry, openChat, statusBarText, waitForLiveLine } from '../../harness/chatDriver';
import { openWorkbench } from '../../harness/openWorkbench';
import { repoRoot } from '../../harness/outputPaths';

/** Four turns over one growing prompt: from turn 3 on the provider reads its prefix from the (fake) prompt cache; turn 4 waits, so every surface can be read. */
function respond(request: FakeModelRequest): FakeResponse {
  const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
  // A long first observation makes the next prompts long enough (1,024 tokens and more) for the provider to cache.
  if (turn === 1) return 'Look at the lines first.\n```repl\nprint("\\n".join(f"line {i}: {str(context)[:60]}" for i in range(400)))\n```';
  if (turn === 2) return 'Now the words.\n```repl\nw = len(str(context).split())\nprint(w)\n```';
  if (turn === 3) return 'Check the count.\n```repl\nprint(w * 2)\n```';
  // Long enough for the live view to open and draw on a loaded machine before the run ends.
  return { text: 'FINAL(3 lines, 6 words)', latencyMs: 45_000 };
}

const CACHED = /\d[\d.]*k? cached · saved \$\d/;

test('a priced model behind a prompt cache shows cached tokens and the money saved, on every surface', { timeout: 300_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond, promptCache: true });
  t.after(() => server.close());
  const { workbench } = await openWorkbench(t, {
    userSettings: {
      'rlm.root.provider': 'openai',
      'rlm.root.baseUrl': server.baseUrl,
      'rlm.root.model': 'cached-model',
      // A price with a prompt-cache rate: cached tokens cost a tenth, and the difference is what caching saved.
      'rlm.prices': { 'cached-model': { input: 3, output: 15, cacheRead: 0.3 } },
      'rlm.confirmBeforeSending': false,
    },
  });
  const chat = await openChat(workbench);
  await askInChat(workbench, chat, 'How many lines and words are there?');
  const line = await waitForLiveLine(chat, 0, /turn 4 .* cached · saved/);
  assert.match(line, CACHED);
  assert.match(await statusBarText(workbench), CACHED, 'the status bar says it too');
  await chatEntry(chat, 0).locator('[data-testid="view-trajectory"]').click();
  const view = await workbench.getWebviewFrame('[data-testid="live-figures"]', 40_000);
  assert.match(await view.locator('[data-testid="live-figures"]').innerText(), CACHED);
  await workbench.screenshot('caching-live-everywhere');

  await view.locator('[data-testid="outcome"]').filter({ hasText: 'Answered' }).waitFor({ timeout: 90_000 });
  assert.match(await view.locator('[data-testid="cache"]').innerText(), CACHED, 'the header has a Cache figure beside the cost');
  assert.match(await view.locator('[data-testid="cost"]').innerText(), /^\$\d/);
  await view.locator('#run-header').scrollIntoViewIfNeeded();
  await workbench.screenshot('caching-header-finished');
});

/** The sample recording with a cached sub-call, cache reads on the root's later turns, and a batch estimate. */
function cachedRecording(dir: string): void {
  const lines = readFileSync(join(repoRoot, 'test', 'fixtures', 'trajectories', 'sample.rlm.jsonl'), 'utf8').trim().split('\n');
  const out: Array<Record<string, unknown>> = [];
  for (const [i, text] of lines.entries()) {
    const record = JSON.parse(text) as Record<string, unknown>;
    if (i === 0) {
      out.push({ ...record, question: 'Which errors repeat, with caching?' });
      continue;
    }
    if (record.type === 'run.started' && record.depth === 0) record.question = 'Which errors repeat, with caching?';
    if (record.type === 'cell.started' && record.cellId === 'run-1-c1') {
      out.push(record);
      out.push({ type: 'batch.estimated', runId: 'run-1', cellId: 'run-1-c1', batchId: 'b-1', prompts: 64, chars: 1_250_000, estimatedCostUsd: 0.0123, ts: record.ts });
      continue;
    }
    if (record.type === 'subcall.finished' && record.callId === 'run-1-c1-s1') {
      record.usage = { inputTokens: 0, outputTokens: 0, costUsd: 0, fromCache: true, savedUsd: 0.000156 };
      record.cached = true;
    }
    if (record.type === 'model.output' && record.runId === 'run-1' && Number(record.turn) > 1) {
      const usage = record.usage as Record<string, number>;
      record.usage = { ...usage, cacheReadTokens: 2_800, savedUsd: 0.0004 };
    }
    out.push(record);
  }
  // Sequence numbers stay gapless after the inserted event.
  let seq = 0;
  for (const record of out.slice(1)) record.seq = ++seq;
  writeFileSync(join(dir, 'cached.rlm.jsonl'), `${out.map((r) => JSON.stringify(r)).join('\n')}\n`);
}

test('a recorded run marks a cached sub-call and shows a batch estimate in its cell', { timeout: 240_000 }, async (t) => {
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-cache-ws-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  cachedRecording(workspace);
  const { workbench } = await openWorkbench(t, { workspace });
  await workbench.openFile('cached.rlm.jsonl');
  const view = await workbench.getWebviewFrame('.turn-slot.loaded section.cell', 60_000);
  assert.equal(await view.locator('#run-header').getByText('fallback').count(), 0, 'an estimate is not a fallback');
  assert.match(await view.locator('[data-testid="cache"]').innerText(), /^8\.4k cached · 1 cached sub-call · saved \$0\.00/);
  const cell = view.locator('section.cell').first();
  assert.equal(
    await cell.locator('[data-testid="batch-estimate"]').innerText().then((s) => s.trim()),
    'Batch estimated before sending: 64 prompts (1.3M characters), about $0.01.',
  );
  const cached = cell.locator('details.subcall', { has: view.locator('[data-testid="cached-call"]') });
  assert.equal(await cached.count(), 1, 'one sub-call is marked cached');
  assert.match(await cached.locator('summary').innerText(), /cached · saved \$0\.00016/);
  assert.doesNotMatch(await cached.locator('summary').innerText(), /0 in · 0 out/);
  await cell.scrollIntoViewIfNeeded();
  await workbench.screenshot('caching-recorded-cached-subcall-and-estimate');
});
