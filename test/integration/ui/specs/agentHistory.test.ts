// Runs an agent asked (the rlm_ask tool, `rlm mcp`) are listed in History like any other, with a line
// saying an agent asked them and through what; a person's run next to them has no such line.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { openChat } from '../../harness/chatDriver';
import { openWorkbench } from '../../harness/openWorkbench';

const SAMPLE = resolve(__dirname, '../../../fixtures/trajectories/sample.rlm.jsonl');

/** The sample run under another question and id, with `askedBy` in its header when given. */
function seedRun(dir: string, name: string, question: string, askedBy?: object): void {
  const [header, ...records] = readFileSync(SAMPLE, 'utf8').trim().split('\n');
  const parsed = JSON.parse(header!) as Record<string, unknown>;
  writeFileSync(join(dir, name), [JSON.stringify({ ...parsed, question, ...(askedBy ? { askedBy } : {}) }), ...records].join('\n') + '\n');
}

test('History marks the runs an agent asked, and through which surface', { timeout: 300_000 }, async (t) => {
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-agent-history-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  const runs = join(workspace, '.rlm', 'runs');
  mkdirSync(runs, { recursive: true });
  seedRun(runs, '2026-12-05T07-00-00-person.rlm.jsonl', 'Asked by a person in the chat');
  seedRun(runs, '2026-12-05T07-01-00-tool.rlm.jsonl', 'Where is the retry policy configured?', { kind: 'agent', via: 'vscode-tool' });
  seedRun(runs, '2026-12-05T07-02-00-mcp.rlm.jsonl', 'List every endpoint that skips auth', { kind: 'agent', via: 'mcp', client: 'claude-code' });
  const { workbench } = await openWorkbench(t, { workspace, userSettings: { 'rlm.trajectoriesInWorkspace': true } });
  const chat = await openChat(workbench);
  await chat.locator('[data-testid="tab-history"]').click();
  const items = chat.locator('[data-testid="history-item"]');
  await items.filter({ hasText: 'List every endpoint that skips auth' }).waitFor({ timeout: 60_000 });
  const mcp = items.filter({ hasText: 'List every endpoint that skips auth' });
  const tool = items.filter({ hasText: 'Where is the retry policy configured?' });
  const person = items.filter({ hasText: 'Asked by a person in the chat' });
  assert.equal((await mcp.locator('[data-testid="history-asked-by"]').innerText()).trim(), 'Asked by an agent (MCP: claude-code)');
  assert.equal((await tool.locator('[data-testid="history-asked-by"]').innerText()).trim(), 'Asked by an agent (chat tool)');
  assert.equal(await person.locator('[data-testid="history-asked-by"]').count(), 0);
  await workbench.screenshot('history-marks-agent-runs');
});
