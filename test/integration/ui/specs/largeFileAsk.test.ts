// The big-file moment: a 20 MB log that VS Code only shows as "not displayed in the text editor
// because it is very large". The palette command asks about it anyway (the active tab decides) and
// the answer comes back; the sidebar offers the file in its About list, and the empty chat says this
// is what RLM is for. (`answer` is a name of the REPL's API, so the scripted model uses `found`.)
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { openWorkbench } from '../../harness/openWorkbench';
import { generateServiceLog } from '../../harness/generatedLog.mjs';

function respond(request: FakeModelRequest): string {
  if (request.messages.some((m) => m.role === 'assistant')) return 'Counted with a regular expression over every line.\nFINAL_VAR(found)';
  return '```repl\nimport re\nn = len(re.findall(r"ERROR \\[payments\\] card declined status=402", context))\nfound = f"{n} card declines with status 402"\nprint(found)\n```';
}

test('a 20 MB log shown as too large for the editor is asked about from the palette', { timeout: 360_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond });
  t.after(() => server.close());
  const { workbench, codeServer } = await openWorkbench(t, {
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': server.baseUrl, 'rlm.root.model': 'fake-model' },
  });
  const log = generateServiceLog({ lines: 215_000 });
  assert.ok(log.text.length > 20 * 1024 * 1024, `the log is ${log.text.length} bytes`);
  mkdirSync(join(codeServer.workspace, 'big'), { recursive: true });
  writeFileSync(join(codeServer.workspace, 'big', 'huge.log'), log.text);

  await workbench.openFile('big/huge.log');
  await workbench.page.getByText('because it is very large').first().waitFor({ state: 'visible', timeout: 30_000 });
  await workbench.screenshot('large-file-placeholder');

  await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
  const input = workbench.page.locator('.quick-input-widget input');
  await workbench.page.locator('.quick-input-widget').filter({ hasText: 'Ask RLM about big/huge.log' }).waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill(log.question);
  await workbench.screenshot('large-file-question');
  await input.press('Enter');
  const toast = await workbench.waitForNotification(`RLM: ${log.answer} card declines with status 402`, 180_000);
  assert.ok(await toast.isVisible());
  await workbench.screenshot('large-file-answered');

  await workbench.runCommandFromPalette('RLM: Focus on Chat View');
  const chat = await workbench.getWebviewFrame('[data-testid="question"]', 60_000);
  await chat.locator('[data-testid="empty-hint"]').filter({ hasText: 'too large for the editor' }).waitFor({ timeout: 30_000 });
  const about = await chat.locator('[data-testid="target-select"] vscode-option').allInnerTexts();
  assert.ok(about.includes('File: big/huge.log'), `the large file is not in the About list: ${about.join(' | ')}`);
  await workbench.screenshot('large-file-in-sidebar');
});
