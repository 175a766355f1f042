// The live trajectory view inside a real VS Code (code-server): "Ask RLM about this file" against a
// fake OpenAI-compatible server in this process opens the live panel, which shows the streamed model
// text and the cells as they run and the final state at the end; a second, slow run is stopped from
// the view's Stop button and shows as stopped.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { openWorkbench } from '../../harness/openWorkbench';
import type { Workbench } from '../../harness/workbench';

function rootReply(request: FakeModelRequest): FakeResponse {
  const conversation = request.messages.map((m) => m.content).join('\n');
  if (/single word OK/.test(conversation)) return 'OK';
  // The slow run: the model takes a minute, so Stop has something to stop.
  if (conversation.includes('STOP-ME')) return { text: '```repl\nprint(1)\n```', latencyMs: 60_000 };
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  if (turn === 0) return { text: 'I will count the lines first.\n```repl\nlines = context.splitlines()\nprint(len(lines))\n```', chunkDelayMs: 40 };
  if (turn === 1) return { text: 'Now the words.\n```repl\nwords = len(context.split())\nprint(words)\n```', chunkDelayMs: 40 };
  return { text: 'Both are known.\nFINAL(3 lines and 6 words)', chunkDelayMs: 20 };
}

async function ask(workbench: Workbench, question: string): Promise<void> {
  await workbench.openFile('notes.txt');
  await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
  const input = workbench.page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(question);
  await workbench.page.keyboard.press('Enter');
}

async function statusOf(view: FrameLocator): Promise<string> {
  return view.locator('.status-badge').innerText();
}

test('a live run is watched to its end, and a slow run is stopped from the view', { timeout: 420_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond: rootReply, chunkChars: 6 });
  t.after(() => server.close());
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-live-ws-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  writeFileSync(join(workspace, 'notes.txt'), 'alpha beta\ngamma delta\nepsilon zeta\n');
  const { workbench } = await openWorkbench(t, {
    workspace,
    userSettings: {
      'rlm.root.provider': 'openai',
      'rlm.root.baseUrl': server.baseUrl,
      'rlm.root.model': 'fake-model',
      'rlm.confirmBeforeSending': false,
      'rlm.trajectoriesInWorkspace': true,
    },
  });

  await ask(workbench, 'How many lines and words?');
  const live = await workbench.getWebviewFrame('#run-header', 90_000);
  await live.locator('.turn-slot').first().waitFor({ timeout: 60_000 });
  await workbench.screenshot('live-run-in-progress');
  await live.locator('.status-badge.status-completed').waitFor({ timeout: 120_000 });
  assert.match(await statusOf(live), /Answered in 3 turns/);
  assert.match(await live.locator('.answer').innerText(), /3 lines and 6 words/);
  assert.equal(await live.locator('.turn-slot.loaded section.cell').count(), 2, 'both cells are shown');
  assert.match(await live.locator('.turn-slot.loaded .stdout').first().innerText(), /^3\s*$/);
  assert.equal(await live.getByRole('button', { name: 'Stop the run' }).count(), 0, 'no Stop once the run ended');
  await workbench.screenshot('live-run-finished');

  await ask(workbench, 'STOP-ME: this one takes too long');
  const slow = await workbench.getWebviewFrame('.status-badge.status-running', 90_000);
  await slow.getByRole('button', { name: 'Stop the run' }).click();
  await slow.locator('.status-badge.status-cancelled').waitFor({ timeout: 60_000 });
  assert.match(await statusOf(slow), /Stopped by you/);
  await workbench.screenshot('stopped-run');
});
