// The trajectory webview in real headless Chromium, outside VS Code: the built bundle in a page with
// the production HTML and CSP, answered by the real host session over real run trees (the same set-up
// as bench/viewBench.ts). Covers what needs a browser: hostile text stays text, live updates and Stop,
// a stopped run, a reference-format file, the 5,000-cell file, paging "show all", search and timeline.
// Needs `npm run build`. Screenshots go to test-output/screenshots/trajectoryViewPage-*.png.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import type { EventRecord } from '../../../../src/core/trajectory/events';
import { readTrajectory } from '../../../../src/core/trajectory/trajectoryReader';
import type { RunNode } from '../../../../src/core/trajectory/treeTypes';
import { LiveFeed } from '../../../../src/vscode/trajectory/liveFeed';
import type { LiveRun } from '../../../../src/vscode/run/liveRunTypes';
import { recordedSourceInfo } from '../../../../src/vscode/trajectory/recordedRun';
import { generateTrajectory, syntheticEvents } from '../../../fixtures/trajectories/generate';
import { launchChromium } from '../../harness/chromium';
import { repoRoot, screenshotsDir } from '../../harness/outputPaths';
import { buildRun, hostileEvents } from '../../../unit/webview/trajectory/runFixtures';
import { openStubView, type StubHost, type StubHostOptions } from '../../../unit/webview/trajectory/stubHostPage';

let browser: Browser;

before(async () => {
  browser = await launchChromium();
  mkdirSync(screenshotsDir(), { recursive: true });
});
after(async () => {
  await browser?.close();
});

async function withView(options: StubHostOptions, body: (page: Page, host: StubHost) => Promise<void>, initScript?: string): Promise<void> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  if (initScript) await page.addInitScript(initScript);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const host = await openStubView(page, options);
  try {
    await body(page, host);
    assert.deepEqual(errors, [], 'no uncaught errors in the page');
    assert.deepEqual(await page.evaluate('window.__cspViolations'), [], 'no CSP violations');
  } finally {
    host.cleanup();
    await context.close();
  }
}

async function screenshot(page: Page, step: string): Promise<void> {
  await page.screenshot({ path: join(screenshotsDir(), `trajectoryViewPage-${step}.png`) });
}

const firstCell = '.turn-slot.loaded section.cell';

/** Records what the list holds in the frame callbacks of the first frame that shows a cell (after the view's own). */
const FIRST_FRAME_PROBE = `new MutationObserver((_m, observer) => {
  if (!document.querySelector('${firstCell}')) return;
  observer.disconnect();
  requestAnimationFrame(() => {
    window.__firstFrame = { loaded: document.querySelectorAll('.turn-slot.loaded').length, slots: document.querySelectorAll('.turn-slot').length };
  });
}).observe(document, { childList: true, subtree: true });`;

describe('trajectory view in Chromium', { timeout: 240_000 }, () => {
  test('model and file text with <script> and <img onerror> is shown as text, never run', async () => {
    const root = buildRun(hostileEvents());
    await withView({ root: () => root }, async (page) => {
      await page.waitForSelector(firstCell);
      // Open the sub-call so its prompt and response render too.
      await page.locator('details.subcall > summary').first().click();
      await page.waitForSelector('.call-body');
      assert.equal(await page.evaluate('window.__pwned'), undefined, 'no injected script ran');
      assert.equal(await page.locator('#app img').count(), 0, 'no <img> element was created from text');
      assert.equal(await page.locator('#app script').count(), 0, 'no <script> element was created from text');
      assert.equal(await page.locator('[onerror]').count(), 0);
      const text = await page.locator('#app').innerText();
      for (const where of ['Question', 'Answer', 'Reasoning', 'Prompt', 'Response', 'Traceback', 'Final']) {
        assert.match(text, new RegExp(`${where} <script>window.__pwned = 1</script><img src=x onerror=`), `${where} shows the markup as text`);
      }
      assert.equal(await page.locator('a[href^="javascript:"]').count(), 0, 'unsafe link targets are dropped');
      await screenshot(page, 'hostile-text');
    });
  });

  test('a live run: cells appear as events arrive, streamed text shows, Stop reaches the run, the end shows', async () => {
    const events = [...syntheticEvents({ cells: 6, subCallsPerCell: 2, liveEvents: true })];
    const listeners = new Set<(r: EventRecord) => void>();
    let stops = 0;
    const run: LiveRun = { runId: 'run-1', records: () => [], subscribe: (l) => (listeners.add(l), () => listeners.delete(l)), stop: () => void stops++ };
    const sink: { host?: StubHost } = {};
    const feed = new LiveFeed({
      run,
      flushMs: 20,
      onFlush: (changes, streams) => {
        for (const s of streams) sink.host?.session.pushStreaming(s.runId, s.turnIndex, s.text);
        if (changes.length) sink.host?.session.pushChanges(changes);
      },
    });
    feed.start();
    const emit = (r: EventRecord): void => listeners.forEach((l) => l(r));
    const cut = (pred: (r: EventRecord) => boolean): EventRecord[] => events.splice(0, events.findIndex(pred));
    try {
      await withView({ root: () => feed.root(), isLive: () => feed.isLive(), stop: () => run.stop() }, async (page, host) => {
        sink.host = host;
        await page.waitForSelector('.status-badge.tone-running');
        // Up to the middle of turn 3's model output: two turns done, the third streaming.
        const streamed = cut((r) => r.type === 'model.output' && r.turn === 3);
        streamed.forEach(emit);
        await page.locator('.turn-slot.loaded section.cell').nth(1).waitFor();
        await page.waitForSelector('.streaming .code-preview');
        assert.match(await page.locator('.streaming').first().innerText(), /Writing Python code…|Python code \(runs next\)/);
        assert.doesNotMatch(await page.locator('.streaming').first().innerText(), /```/, 'the streamed code shows as code, not as a fence');
        await screenshot(page, 'live-streaming');
        await page.getByRole('button', { name: 'Stop the run' }).click();
        await expectEventually(() => stops === 1, 'Stop reached the run');
        events.forEach(emit);
        await page.waitForSelector('.status-badge.tone-ok');
        assert.equal(await page.getByRole('button', { name: 'Stop the run' }).count(), 0, 'no Stop once the run ended');
        await page.locator('.turn-slot.loaded section.cell').nth(5).waitFor();
        // Following: the newest turn is in view.
        assert.ok(await page.locator('#turn-5').isVisible());
        assert.equal(await page.locator('.streaming').count(), 0);
        await screenshot(page, 'live-finished');
      });
    } finally {
      feed.dispose();
    }
  });

  test('a stopped run shows its final state', async () => {
    const records = [...syntheticEvents({ cells: 3, subCallsPerCell: 1, unfinished: true })];
    const last = records[records.length - 1]!;
    records.push({ type: 'run.finished', runId: 'run-1', status: 'cancelled', forced: false, error: { kind: 'cancelled', message: 'Stopped by the user' }, partial: 'found 3 so far', totals: { inputTokens: 0, outputTokens: 0, costUsd: 0, costUnknown: false, subCalls: 3, iterations: 3, wallTimeMs: 10 }, seq: last.seq + 1, ts: last.ts + 1 });
    const root = buildRun(records);
    await withView({ root: () => root }, async (page) => {
      await page.waitForSelector(firstCell);
      assert.match(await page.locator('.status-badge').innerText(), /Stopped by you after 3 turns/);
      assert.equal(await page.locator('.run-header .outcome-detail').count(), 0, 'a stop is not an error');
      assert.equal(await page.locator('#final-answer').count(), 0, 'no answer box for a stop');
      assert.match(await page.locator('[data-testid="partial-findings"]').innerText(), /not an answer[\s\S]*found 3 so far/i);
      await screenshot(page, 'stopped-run');
    });
  });

  test("the answer's mentions of its references are links: a line, a PDF page, a range of cells; a mention not resolved stays text", async () => {
    const records = [...syntheticEvents({ cells: 1 })];
    const finished = records.findIndex((e) => e.type === 'run.finished');
    const done = records[finished]!;
    const text = 'The budget is on design.pdf#page=18:3, plotted in analysis.ipynb#cell=4-6; retries at src/retry.ts:12 (not src/retry.ts:13).';
    const answered = records.map((e) => (e.type === 'answer' ? { ...e, text } : e.type === 'run.finished' ? { ...e, answer: text } : e));
    const references: EventRecord = {
      type: 'references',
      runId: done.runId,
      seq: done.seq,
      ts: done.ts,
      references: [
        { path: 'src/retry.ts', line: 12, text: 'const RETRIES = 3;' },
        { path: 'docs/design.pdf#page=18', line: 3, text: 'Error budget: 3 percent' },
        { path: 'analysis.ipynb', line: 40, endLine: 90, notebookCell: { cell: 4, endCell: 6 }, text: 'plt.plot(sales)' },
      ],
      unresolved: [],
    };
    const root = buildRun([...answered.slice(0, finished), references, { ...answered[finished]!, seq: done.seq + 1 }]);
    await withView({ root: () => root }, async (page, host) => {
      const mentions = page.locator('#final-answer .mention-link');
      await mentions.first().waitFor();
      assert.deepEqual(await mentions.allInnerTexts(), ['design.pdf#page=18:3', 'analysis.ipynb#cell=4-6', 'src/retry.ts:12']);
      assert.match(await page.locator('#final-answer').innerText(), /not src\/retry\.ts:13/);
      await mentions.nth(0).click();
      await mentions.nth(1).click();
      const opened = (): unknown[] => host.received.filter((m) => (m as { type?: string }).type === 'openReference').map((m) => (m as { index: number }).index);
      for (let i = 0; i < 50 && opened().length < 2; i++) await page.waitForTimeout(20);
      assert.deepEqual(opened(), [1, 2], 'each link opens its reference by index');
      await screenshot(page, 'answer-mentions');
    });
  });

  test('a reference-format file opens with its nested calls', async () => {
    const read = await readTrajectory(join(repoRoot, 'test', 'fixtures', 'trajectories', 'reference-nested.jsonl'));
    const root = read.tree as RunNode;
    assert.ok(root, 'the fixture holds a run');
    await withView({ root: () => root, info: recordedSourceInfo(read, 'reference-nested.jsonl') }, async (page) => {
      await page.waitForSelector(firstCell);
      await page.locator('.run-details > summary').click();
      const header = await page.locator('.run-header').innerText();
      assert.match(header, /reference format/);
      assert.match(header, /ROOT MODEL\s+gpt-5\b/i, 'the root model comes from the reference metadata');
      assert.ok((await page.locator('details.subcall').count()) > 0, 'sub-calls are listed');
      await screenshot(page, 'reference-format');
    });
  });

  test('keyboard moves between cells; export, copy and the errors-only filter reach the host', async () => {
    const root = buildRun([...syntheticEvents({ cells: 30, subCallsPerCell: 2 })]);
    await withView({ root: () => root }, async (page, host) => {
      await page.waitForSelector(firstCell);
      await page.locator('#turn-0 section.cell').focus();
      await page.keyboard.press('ArrowDown');
      assert.equal(await page.evaluate('document.activeElement.closest(".turn-slot").id'), 'turn-1');
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('ArrowUp');
      assert.equal(await page.evaluate('document.activeElement.closest(".turn-slot").id'), 'turn-1');
      await page.getByRole('button', { name: 'Export as .ipynb' }).click();
      await page.getByRole('button', { name: 'Export as Markdown' }).click();
      await page.getByRole('button', { name: 'Copy answer' }).first().click();
      await expectEventually(() => host.actions.length === 3, 'three actions reached the host');
      assert.deepEqual(host.actions, ['export:ipynb', 'export:markdown', 'copy:42 distinct errors']);
      // Errors only, with no query: every error is listed (turns 11 and 22).
      await page.locator('#filter-errors').click();
      await page.locator('.search-hit').nth(1).waitFor();
      assert.equal(await page.locator('.search-hit').count(), 2);
      assert.match(await page.locator('.search-hit').first().innerText(), /Turn 11 · error[\s\S]*KeyError/);
      await page.locator('.search-hit').nth(1).click();
      await page.locator('#turn-21.loaded section.cell.has-error').waitFor();
      await page.getByRole('button', { name: 'Jump to final answer' }).click();
      assert.equal(await page.evaluate('document.activeElement.id'), 'final-answer');
      await screenshot(page, 'keyboard-export-filter');
    });
  });

  test('a cell with more sub-calls than a page holds offers the rest', async () => {
    const root = buildRun([...syntheticEvents({ cells: 1, subCallsPerCell: 210 })]);
    await withView({ root: () => root }, async (page) => {
      await page.waitForSelector(firstCell);
      assert.equal(await page.locator('details.subcall').count(), 200);
      await page.getByRole('button', { name: 'Show 10 more sub-calls' }).click();
      await page.locator('details.subcall').nth(209).waitFor({ state: 'attached' });
      assert.equal(await page.locator('details.subcall').count(), 210);
    });
  });

  test('the 5,000-cell file opens, jumps, searches, pages "show all" and draws the timeline', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rlm-view-spec-'));
    try {
      const file = join(dir, 'big.rlm.jsonl');
      generateTrajectory(file, { cells: 5000, subCallsPerCell: 4, outputChars: 2500 });
      const root = (await readTrajectory(file)).tree as RunNode;
      await withView({ root: () => root }, async (page) => {
        await page.waitForSelector(firstCell);
        // The first frame holds the header and the first two turns: the range in view, the other
        // turns of the first page and the remaining slots wait until it has been painted.
        await page.waitForFunction('window.__firstFrame !== undefined');
        const frame = (await page.evaluate('window.__firstFrame')) as { loaded: number; slots: number };
        assert.equal(frame.loaded, 2, 'only the first two turns are drawn in the first frame');
        assert.ok(frame.slots <= 400, `one chunk of slots in the first frame, not ${frame.slots}`);
        await expectEventually(async () => (await page.locator('.turn-slot.loaded').count()) >= 10, 'the rest of the first page is drawn after the first paint');
        await screenshot(page, 'big-first-cells');
        await page.locator('#turn-4999').waitFor({ state: 'attached', timeout: 60_000 });
        // Search for one cell's code and jump to it.
        await page.locator('#search-field').click();
        await page.keyboard.type('split(context, 4321)');
        await page.waitForSelector('.search-hit');
        await page.locator('.search-hit').first().click();
        await page.waitForSelector('#turn-4320.loaded section.cell');
        assert.match(await page.locator('#turn-4320').innerText(), /split\(context, 4321\)/);
        // Outputs longer than the preview page in the rest from the host.
        const output = page.locator('#turn-4320 .stdout');
        const before = (await output.innerText()).length;
        await page.locator('#turn-4320 .show-all').first().click();
        await expectEventually(async () => (await output.innerText()).length > before, 'show all loaded the rest');
        assert.ok((await page.locator('.turn-slot.loaded').count()) < 400, 'only turns near the viewport hold their bodies');
        await screenshot(page, 'big-search-jump');
        // The outline entry: one element, its number drawn from data-number, its tooltip written on hover.
        const entry = page.locator('.outline li[data-index="4320"] > .outline-item');
        await entry.waitFor({ state: 'attached' });
        assert.equal(await entry.getAttribute('data-number'), '4321');
        assert.equal(await entry.evaluate((e) => e.childElementCount), 0, 'no element inside an outline entry');
        assert.equal(await entry.evaluate((e) => getComputedStyle(e, '::before').content), '"4321"');
        assert.match((await entry.getAttribute('aria-label')) ?? '', /^Turn 4321: /);
        assert.equal(await entry.getAttribute('title'), null, 'no tooltip is built before it is wanted');
        await entry.hover();
        assert.match((await entry.getAttribute('title')) ?? '', /^Turn 4321: .+\n1 cell, 4 sub-calls, \d+ errors?, /);
        const next = page.locator('.outline li[data-index="4321"] > .outline-item');
        await next.focus();
        assert.match((await next.getAttribute('title')) ?? '', /^Turn 4322: /, 'the keyboard reaches the figures too');
        await page.locator('#toggle-timeline').click();
        await page.waitForSelector('#turn-4320 .wf-row');
        assert.ok((await page.locator('#turn-4320 .wf-bar').count()) >= 6, 'model, cell and four sub-calls are drawn');
        await screenshot(page, 'big-timeline');
      }, FIRST_FRAME_PROBE);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function expectEventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`timed out waiting until ${what}`);
}
