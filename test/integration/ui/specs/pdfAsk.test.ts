// A PDF in a real VS Code: the editor shows the file's PDF syntax at best (a real PDF, with compressed
// streams, only as binary), yet "Ask RLM about this file" from the palette reads it page by page (parsed in a worker thread of the extension host) and answers; the
// answer's page reference opens the page's extracted text, read-only, at the cited line (no PDF viewer
// is installed here). A reference into a compressed log opens its decompressed text, not the .gz bytes.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { openTrajectoryWriter } from '../../../../src/core/trajectory/trajectoryWriter';
import type { EventRecord } from '../../../../src/core/trajectory/events';
import { syntheticEvents, syntheticHeader } from '../../../fixtures/trajectories/generate';
import { makePdf } from '../../../support/pdfMaker';
import { openWorkbench } from '../../harness/openWorkbench';

function respond(request: FakeModelRequest): string {
  if (request.messages.some((m) => m.role === 'assistant')) return 'FINAL_VAR(found)';
  // The budget line is found by reading the pages, and cited as the page and line it is on.
  return "```repl\nkey = next(k for k in context if 'budget' in context[k])\nline = next(i + 1 for i, l in enumerate(context[key].split('\\n')) if 'budget' in l)\nfound = 'The error budget is 3 percent (' + key + ':' + str(line) + ').'\nprint(found)\n```";
}

/** A recorded run over logs/app.log.2.gz citing its decompressed line 3. */
function writeCompressedRun(workspace: string): void {
  mkdirSync(join(workspace, 'logs'), { recursive: true });
  writeFileSync(join(workspace, 'logs', 'app.log.2.gz'), gzipSync('boot ok\nlistening on 8080\nERROR disk full on /var (the cited line)\nrecovered\n'));
  // Asked about the .gz alone: the run records that its text was read decompressed from gzip.
  const events = [...syntheticEvents({ cells: 1, runId: 'gz-run' })].map((e) => (e.type === 'run.started' && e.context ? { ...e, context: { ...e.context, format: { compression: 'gzip' as const } } } : e));
  const finished = events.findIndex((e) => e.type === 'run.finished');
  const last = events[finished]!;
  const references: EventRecord = { type: 'references', runId: 'gz-run', seq: last.seq, ts: last.ts, references: [{ path: 'logs/app.log.2.gz', line: 3, text: 'ERROR disk full on /var (the cited line)' }], unresolved: [] };
  const writer = openTrajectoryWriter(join(workspace, 'gz.rlm.jsonl'), syntheticHeader({ cells: 1, runId: 'gz-run' }), { exclusive: false });
  for (const record of [...events.slice(0, finished), references, { ...last, seq: last.seq + 1 }]) writer.write(record);
  writer.close();
}

test('a PDF is asked about from the palette, and its page reference opens the page; a .gz reference opens decompressed', { timeout: 420_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond });
  t.after(() => server.close());
  const { workbench, codeServer } = await openWorkbench(t, {
    userSettings: { 'rlm.root.provider': 'openai', 'rlm.root.baseUrl': server.baseUrl, 'rlm.root.model': 'fake-model' },
  });
  const { page } = workbench;
  // The editor of the active group: design.pdf itself stays open in a tab, and holds the same words as PDF syntax.
  const activeLine = (text: string) => page.locator('.editor-group-container.active .monaco-editor .view-line', { hasText: text });
  writeFileSync(
    join(codeServer.workspace, 'design.pdf'),
    makePdf([{ lines: ['Design overview', 'The cache holds 42 entries.'] }, { lines: ['Second page', 'Latency target: 200 ms', 'ERROR budget is 3 percent'] }, {}, { lines: ['Appendix'] }]),
  );
  writeCompressedRun(codeServer.workspace);

  await workbench.openFile('design.pdf');
  await workbench.screenshot('pdf-opened-as-its-syntax');
  await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
  const input = page.locator('.quick-input-widget input');
  await page.locator('.quick-input-widget').filter({ hasText: 'Ask RLM about design.pdf' }).waitFor({ state: 'visible', timeout: 60_000 });
  await input.fill('What is the error budget?');
  await input.press('Enter');
  const toast = await workbench.waitForNotification('RLM: The error budget is 3 percent (design.pdf#page=2:3).', 240_000);
  assert.ok(await toast.isVisible());
  await workbench.screenshot('pdf-answered');

  // The root was told it is a PDF of 4 pages, page 3 without text.
  const told = server.completionRequests[0]?.rawBody ?? '';
  assert.match(told, /The input is a PDF of 4 pages/);

  const view = await workbench.getWebviewFrame('.references .reference-link', 90_000);
  assert.deepEqual(await view.locator('.references .reference-list:not(.unresolved) .reference-link').allInnerTexts(), ['design.pdf#page=2:3']);
  // The page named in the answer's prose is a link too, to the same reference.
  assert.deepEqual(await view.locator('#final-answer .mention-link').allInnerTexts(), ['design.pdf#page=2:3']);
  await workbench.screenshot('pdf-reference-under-answer');
  await view.locator('#final-answer .mention-link', { hasText: 'design.pdf#page=2:3' }).click();
  await page.locator('.tab.active', { hasText: 'design.pdf (page 2, extracted text)' }).waitFor({ timeout: 60_000 });
  await activeLine('ERROR budget is 3 percent').waitFor({ timeout: 30_000 });
  await activeLine('[page 2 of ').waitFor({ timeout: 15_000 });
  // One header line, then the page: the page's line 3 is the editor's line 4.
  assert.match(await page.locator('.statusbar-item', { hasText: /Ln \d+, Col/ }).first().innerText(), /Ln 4, Col/);
  await workbench.screenshot('pdf-page-text-at-line');

  await workbench.openFile('gz.rlm.jsonl');
  // Found by what only this run's view shows: the PDF run's view, still open, has reference links too.
  const gzView = await workbench.getWebviewFrame('[data-testid="target"]:has-text("read decompressed from gzip")', 60_000);
  // The header names the input's original format beside what was asked about, as `rlm show` does.
  await gzView.locator('[data-testid="target"]', { hasText: /^About .* · read decompressed from gzip$/ }).waitFor({ state: 'visible', timeout: 30_000 });
  await workbench.screenshot('gz-run-header');
  await gzView.locator('.references .reference-list:not(.unresolved) .reference-link', { hasText: 'logs/app.log.2.gz:3' }).click();
  await page.locator('.tab.active', { hasText: 'app.log.2.gz (decompressed, around line 3)' }).waitFor({ timeout: 60_000 });
  await activeLine('ERROR disk full on /var (the cited line)').waitFor({ timeout: 30_000 });
  assert.match(await page.locator('.statusbar-item', { hasText: /Ln \d+, Col/ }).first().innerText(), /Ln 4, Col/);
  await workbench.screenshot('gz-reference-decompressed');
});
