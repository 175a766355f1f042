// Issue 31, item 2: the live trajectory view keeps up with the run. A slow scripted run (sub-calls one
// after another, a pause between turns) is sampled many times: the view's live line and the status
// bar's, read back to back, agree within one event. And the view is there at once: its header (the
// question, the models, the target, no cost yet) shows before the run's first event, and each turn and
// sub-call the run records shows in the view within 100 ms of the record's own timestamp. The view's
// page notes the moment its figures change (a MutationObserver, the browser's clock, which is this
// machine's, as the extension host's that stamps the records); the records come from the run's file.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { Frame, Page } from 'playwright-core';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { openWorkbench } from '../../harness/openWorkbench';

const TURNS = 5;
const SUBS_PER_TURN = 4;
const isRoot = (r: FakeModelRequest): boolean => !!r.system?.includes('persistent Python REPL');

function respond(request: FakeModelRequest): FakeResponse {
  if (!isRoot(request)) return { text: 'ok', latencyMs: 500 };
  const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
  if (turn > TURNS) return { text: 'FINAL(done)', latencyMs: 800 };
  return { text: `Turn ${turn}.\n\`\`\`repl\nfor i in range(${SUBS_PER_TURN}):\n    print(llm_query(f"part {i} of turn ${turn}"))\n\`\`\``, latencyMs: 800 };
}

interface Figures {
  turn: number;
  subCalls: number;
}

/** "turn 3 · 12 sub-calls · …" or "starting · 0 sub-calls · …" → figures; undefined when there is no line. */
function figuresOf(line: string): Figures | undefined {
  const subs = /(\d+) sub-calls?/.exec(line);
  if (!subs) return undefined;
  const turn = /turn (\d+)/.exec(line);
  return { turn: turn ? Number(turn[1]) : 0, subCalls: Number(subs[1]) };
}

const within = (value: number, a: number, b: number): boolean => value >= Math.min(a, b) - 1 && value <= Math.max(a, b) + 1;

/** The bound: the header and each event show within this of the run's events (as the status bar shows them). */
const EVENT_LAG_MS = 100;

/** The webview frame holding `selector`, looked for every few milliseconds (the harness polls every 250 ms). */
async function frameWith(page: Page, selector: string, timeoutMs: number): Promise<{ frame: Frame; at: number }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if (await frame.$(selector).catch(() => null)) return { frame, at: Date.now() };
    }
    await page.waitForTimeout(5);
  }
  throw new Error(`no webview showed ${selector} within ${timeoutMs} ms`);
}

interface Seen {
  at: number;
  figures: string | null;
}

/**
 * Notes in a page, with the time, every change of the text `read` returns (from now on): the view's
 * live figures, or the status bar's line. Both pages run in this machine's browser, on one clock.
 */
async function watchText(frame: Frame, read: string): Promise<void> {
  // A string, not a function: the spec's compiler would wrap named functions in a helper the page lacks.
  await frame.evaluate(`(() => {
    window.__rlmSeen = [];
    let last;
    function note() {
      const figures = (${read}) ?? null;
      if (figures === last) return;
      last = figures;
      window.__rlmSeen.push({ at: Date.now(), figures });
    }
    note();
    new MutationObserver(note).observe(document.body, { subtree: true, childList: true, characterData: true });
  })()`);
}

const VIEW_FIGURES = `document.querySelector('[data-testid="live-figures"]')?.textContent`;
const STATUS_BAR_LINE = `[...document.querySelectorAll('.statusbar-item')].map((e) => e.textContent.trim()).find((t) => /^RLM /.test(t))`;

/** The status bar's run line now, read in one evaluation ('' when none): no waiting on an item the run's end removes. */
async function barLine(page: Page): Promise<string> {
  return String((await page.evaluate(STATUS_BAR_LINE).catch(() => '')) ?? '');
}

/** The first moment `seen` showed figures that count `event`. */
function shownAt(seen: Seen[], shows: (f: Figures) => boolean): number {
  return seen.find((s) => {
    const f = s.figures ? figuresOf(s.figures) : undefined;
    return f !== undefined && shows(f);
  })?.at ?? Infinity;
}

interface TimedRecord {
  type: string;
  runId: string;
  ts: number;
  turn?: number;
}

/** The run's events the live figures count (root turns started, sub-calls started), each with the figures that show it. */
function countedEvents(records: TimedRecord[]): Array<{ what: string; ts: number; shows: (f: Figures) => boolean }> {
  const root = records.find((r) => r.type === 'run.started')?.runId;
  let subs = 0;
  const out: Array<{ what: string; ts: number; shows: (f: Figures) => boolean }> = [];
  for (const r of records) {
    if (r.type === 'turn.started' && r.runId === root && r.turn !== undefined) {
      const turn = r.turn;
      out.push({ what: `turn ${turn}`, ts: r.ts, shows: (f) => f.turn >= turn });
    } else if (r.type === 'subcall.started') {
      const n = ++subs;
      out.push({ what: `sub-call ${n}`, ts: r.ts, shows: (f) => f.subCalls >= n });
    }
  }
  return out;
}

test('the live view and the status bar agree within one event throughout a slow run', { timeout: 360_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond });
  t.after(() => server.close());
  const workspace = mkdtempSync(join(tmpdir(), 'rlm-live-step-ws-'));
  t.after(() => rmSync(workspace, { recursive: true, force: true }));
  const runs = mkdtempSync(join(tmpdir(), 'rlm-live-step-runs-'));
  t.after(() => rmSync(runs, { recursive: true, force: true }));
  writeFileSync(join(workspace, 'notes.txt'), 'alpha beta\ngamma delta\n');
  const { workbench, page } = await openWorkbench(t, {
    workspace,
    userSettings: {
      'rlm.root.provider': 'openai',
      'rlm.root.baseUrl': server.baseUrl,
      'rlm.root.model': 'fake-model',
      'rlm.confirmBeforeSending': false,
      'rlm.subCallCache.enabled': false,
      'rlm.trajectoryDirectory': runs,
    },
  });
  await workbench.openFile('notes.txt');
  await workbench.runCommandFromPalette('RLM: Ask RLM about this file');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  await input.fill('Go slowly through the notes');
  const asked = Date.now();
  await page.keyboard.press('Enter');

  // The view opens as the question is asked, before the run exists: the question, the models, the target.
  const header = await frameWith(page, '#run-header', 60_000);
  const headerShownMs = header.at - asked;
  await watchText(header.frame, VIEW_FIGURES);
  await watchText(page.mainFrame(), STATUS_BAR_LINE);
  const firstHeader = await header.frame.locator('#run-header').innerText();
  await workbench.screenshot('view-at-once');
  assert.match(firstHeader, /Go slowly through the notes/, 'the question');
  assert.match(firstHeader, /fake-model/, 'the root model');
  assert.match(firstHeader, /About file notes\.txt/, 'the target');
  assert.doesNotMatch(firstHeader, /\$0\.00/, 'never "$0.00"');
  const statusBarAt = await (async () => {
    while (Date.now() - asked < 90_000) {
      if (figuresOf(await barLine(page))) return Date.now();
      await page.waitForTimeout(5);
    }
    return 0;
  })();
  assert.ok(statusBarAt, 'the status bar showed the run');
  t.diagnostic(`header ${headerShownMs} ms after Enter; the status bar's run line ${statusBarAt - asked} ms after Enter; first header: ${JSON.stringify(firstHeader.slice(0, 300))}`);

  const view = await workbench.getWebviewFrame('#run-header', 60_000);

  // The first turn: once the status bar counts turn 1, the view shows that turn's slot.
  let statusTurnOneAt = 0;
  while (Date.now() - asked < 90_000) {
    if ((figuresOf(await barLine(page))?.turn ?? 0) >= 1) {
      statusTurnOneAt = Date.now();
      break;
    }
    await page.waitForTimeout(20);
  }
  assert.ok(statusTurnOneAt, 'the status bar reached turn 1');
  await view.locator('.turn-slot').first().waitFor({ timeout: 10_000 });
  const firstTurnLagMs = Date.now() - statusTurnOneAt;
  await workbench.screenshot('first-turn');

  const samples: Array<{ before: Figures; view: Figures; after: Figures }> = [];
  while (samples.length < 60) {
    const before = figuresOf(await barLine(page));
    // One evaluation, no waiting for the element to be stable (it is redrawn on every tick).
    const shown = figuresOf(String(await header.frame.evaluate(`document.querySelector('[data-testid="live-figures"]')?.textContent ?? ''`).catch(() => '')));
    const after = figuresOf(await barLine(page));
    if (!before || !after || !shown) break; // the run ended: the live lines are gone
    samples.push({ before, view: shown, after });
    await page.waitForTimeout(150);
  }
  await workbench.screenshot('sampled');
  t.diagnostic(`view header after ${headerShownMs} ms; first turn drawn ${firstTurnLagMs} ms after the status bar counted it; ${samples.length} samples`);
  t.diagnostic(samples.map((s) => `sb ${s.before.turn}/${s.before.subCalls} view ${s.view.turn}/${s.view.subCalls} sb ${s.after.turn}/${s.after.subCalls}`).join('; '));
  assert.ok(samples.length >= 8, `only ${samples.length} samples while the run went: it ran too fast to test`);
  assert.ok(new Set(samples.map((s) => s.view.subCalls)).size >= 4, 'the view counted sub-calls as they happened');
  for (const [i, s] of samples.entries()) {
    assert.ok(within(s.view.turn, s.before.turn, s.after.turn), `sample ${i}: the view says turn ${s.view.turn}, the status bar ${s.before.turn}..${s.after.turn}`);
    assert.ok(within(s.view.subCalls, s.before.subCalls, s.after.subCalls), `sample ${i}: the view says ${s.view.subCalls} sub-calls, the status bar ${s.before.subCalls}..${s.after.subCalls}`);
  }
  await view.locator('.status-badge.status-completed').waitFor({ timeout: 60_000 });
  assert.equal(await view.locator('.turn-slot').count(), TURNS + 1);

  // Each event against the moment the view showed it, on one clock.
  const seen = (await header.frame.evaluate('window.__rlmSeen')) as Seen[];
  const statusSeen = (await page.mainFrame().evaluate('window.__rlmSeen')) as Seen[];
  const file = readdirSync(runs).find((name) => name.endsWith('.rlm.jsonl'));
  assert.ok(file, `the run was recorded in ${runs}`);
  const records = readFileSync(join(runs, file), 'utf8').split('\n').filter((line) => line.trim()).map((line) => JSON.parse(line) as TimedRecord).filter((r) => typeof r.ts === 'number');
  const firstEventTs = Math.min(...records.map((r) => r.ts));
  const lags = countedEvents(records).map((event) => {
    const view = shownAt(seen, event.shows);
    const bar = shownAt(statusSeen, event.shows);
    return { what: event.what, view: view - event.ts, bar: bar - event.ts, behindBar: view - bar };
  });
  const stats = (values: number[]): string => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
    return `median ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${sorted[sorted.length - 1]} ms`;
  };
  t.diagnostic(`header shown ${header.at - firstEventTs} ms after the run's first event (negative: before it), ${header.at - statusBarAt} ms after the status bar first showed the run`);
  t.diagnostic(`${lags.length} events; from the record's timestamp to the view: ${stats(lags.map((l) => l.view))}; to the status bar: ${stats(lags.map((l) => l.bar))}; the view behind the status bar: ${stats(lags.map((l) => l.behindBar))}`);
  t.diagnostic(lags.map((l) => `${l.what} view +${l.view} bar +${l.bar}`).join('; '));
  assert.ok(lags.length >= TURNS + TURNS * SUBS_PER_TURN, `the run recorded its turns and sub-calls (${lags.length} counted)`);
  // The bound, measured as it says: against the status bar's counters at the same moment.
  assert.ok(header.at <= firstEventTs + EVENT_LAG_MS && header.at <= statusBarAt + EVENT_LAG_MS, 'the header is there before the run\'s first event and the status bar');
  for (const l of lags) assert.ok(l.behindBar <= EVENT_LAG_MS, `${l.what} showed in the view ${l.behindBar} ms after the status bar (${l.view} ms after the run recorded it)`);
});
