// The webview's DOM-free decisions: formatting, follow mode, paging, waterfall layout, outline
// labels, search input and Python tokens.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TurnSummary, ViewRunStatus } from '../../../../src/shared/trajectoryProtocol';
import { FollowMode, isAtBottom } from '../../../../webview/trajectory/followMode';
import { coverageSeenText } from '../../../../webview/trajectory/viewFormat';
import { outlineLabel, outlineTitle, placeholderText } from '../../../../webview/trajectory/outlineModel';
import { MAX_HIGHLIGHT_CHARS, highlightPython } from '../../../../webview/trajectory/pythonTokens';
import { buildFilters, describeResults } from '../../../../webview/trajectory/searchModel';
import { assignLanes, layoutWaterfall, MIN_WIDTH_PCT, placeOnTrack } from '../../../../webview/trajectory/timelineLayout';
import { slotRange } from '../../../../webview/trajectory/slotRange';
import { TurnPaging } from '../../../../webview/trajectory/turnPaging';
import { batchEstimateText, cachedCallText, callFiguresText, formatUsage, statusIcon, statusLabel, turnModelText } from '../../../../webview/trajectory/viewFormat';

describe('viewFormat', () => {
  // Typed as a Record so that a new status fails to compile here until it has a label and an icon.
  const EXPECTED: Record<ViewRunStatus, { label: string; icon: string }> = {
    completed: { label: 'Answered', icon: 'pass' },
    forced: { label: 'Best answer at a limit', icon: 'warning' },
    cancelled: { label: 'Stopped', icon: 'debug-stop' },
    limit: { label: 'Stopped at a limit', icon: 'warning' },
    error: { label: 'Failed', icon: 'error' },
    running: { label: 'Running', icon: 'loading' },
    incomplete: { label: 'Incomplete (the file has no end)', icon: 'warning' },
  };

  it('labels every status for people, each with its own label and an icon', () => {
    for (const [status, expected] of Object.entries(EXPECTED) as Array<[ViewRunStatus, { label: string; icon: string }]>) {
      assert.deepEqual({ label: statusLabel(status), icon: statusIcon(status) }, expected, status);
    }
    const labels = Object.keys(EXPECTED).map((s) => statusLabel(s as ViewRunStatus));
    assert.equal(new Set(labels).size, labels.length, `two statuses read the same: ${labels.join(', ')}`);
  });
});

describe('cache and batch figures in the view', () => {
  const usage = { inputTokens: 12_000, outputTokens: 300, costUsd: 0.02, costUnknown: false };

  it('adds what caching did to a node\'s usage only when it did something', () => {
    assert.equal(formatUsage(usage, false), '12k in · 300 out · $0.02');
    assert.equal(formatUsage({ ...usage, cacheReadTokens: 10_000, savedUsd: 0.027 }, false), '12k in · 300 out · $0.02 · 10k cached · saved $0.03');
    assert.equal(formatUsage({ ...usage, costUsd: 0, cachedSubCalls: 2 }, true), '12k in · 300 out · local (no charge) · 2 cached sub-calls');
  });

  it('shows a cached sub-call by what it saved, not by zero tokens', () => {
    assert.equal(cachedCallText(0.0042), 'cached · saved $0.0042');
    assert.equal(cachedCallText(undefined), 'cached', 'no price, no saving to name');
  });

  it('shows a replayed turn or sub-call as replayed and not billed, never as $0.00; others by their tokens and cost', () => {
    const totals = { inputTokens: 0, outputTokens: 0, costUsd: 0, costUnknown: false, subCalls: 1, errors: 0, wallTimeMs: 0, savedUsd: 0.001 };
    const call = { inputTokens: 0, outputTokens: 0, costUsd: 0, totals };
    assert.equal(callFiguresText({ ...call, replayed: true }, false), 'replayed from the record · not sent, not billed');
    assert.equal(callFiguresText({ ...call, cached: true }, false), 'cached · saved $0.0010');
    assert.equal(callFiguresText({ ...call, inputTokens: 1200, outputTokens: 30, costUsd: null }, false), '1.2k in · 30 out · price unknown');
    assert.equal(callFiguresText({ ...call, inputTokens: undefined }, false), '', 'still running: no figures yet');
    const turn = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
    assert.equal(turnModelText({ ...turn, replayed: true }, false), 'root model replayed from the record · not sent, not billed');
    assert.equal(turnModelText({ inputTokens: 2000, outputTokens: 5, costUsd: 0.001, cacheReadTokens: 1800, savedUsd: 0.004 }, false), 'root model 2.0k in · 5 out · $0.0010 · 1.8k cached · saved $0.0040');
    assert.equal(turnModelText({ inputTokens: 10, outputTokens: 5, costUsd: 0 }, true), 'root model 10 in · 5 out · local (no charge)');
  });

  it('says what a large batch was estimated to cost, and that a refused batch sent nothing', () => {
    assert.equal(batchEstimateText({ batchId: 'b', prompts: 60, chars: 1_234_567, estimatedCostUsd: 0.0123 }), 'Batch estimated before sending: 60 prompts (1.2M characters), about $0.01.');
    assert.equal(batchEstimateText({ batchId: 'b', prompts: 51, chars: 9_000, estimatedCostUsd: null }), 'Batch estimated before sending: 51 prompts (9,000 characters), cost unknown (no price is set for the model).');
    const refused = batchEstimateText({ batchId: 'b', prompts: 200, chars: 4_000_000, estimatedCostUsd: 2.5, refused: true });
    assert.equal(refused, "Batch refused before sending: 200 prompts (4.0M characters) would cost about $2.50, past the run's cost limit (rlm.maxCostUsd). Nothing was sent.");
  });
});

describe('FollowMode', () => {
  const at = (scrollTop: number, scrollHeight = 2000, clientHeight = 500) => ({ scrollTop, scrollHeight, clientHeight });

  it('follows until the user scrolls up, and resumes at the bottom', () => {
    const follow = new FollowMode();
    assert.equal(follow.active, true);
    follow.onScroll(at(1500));
    assert.equal(follow.active, true);
    follow.onScroll(at(900));
    assert.equal(follow.active, false, 'scrolling up stops following');
    follow.onScroll(at(1200));
    assert.equal(follow.active, false, 'scrolling down but not to the bottom keeps it off');
    follow.onScroll(at(1490));
    assert.equal(follow.active, true, 'reaching the bottom resumes');
  });

  it('ignores its own scrolling to the newest cell, and stops on a deliberate jump', () => {
    const follow = new FollowMode();
    follow.onScroll(at(1500, 2000));
    follow.markProgrammaticScroll();
    follow.onScroll(at(1600, 3000)); // content grew: not at the bottom yet, but we scrolled ourselves
    assert.equal(follow.active, true);
    follow.stop();
    assert.equal(follow.active, false);
    assert.equal(isAtBottom(at(1460)), true);
    assert.equal(isAtBottom(at(1400)), false);
  });
});

describe('TurnPaging', () => {
  it('asks for the pages in view plus one either side, once', () => {
    const paging = new TurnPaging(10);
    assert.deepEqual(paging.take(25, 38, 5000), [1, 2, 3, 4]);
    assert.deepEqual(paging.take(25, 38, 5000), [], 'pending pages are not asked again');
    paging.loaded(2);
    assert.deepEqual(paging.take(0, 5, 5000), [0]);
    assert.deepEqual(paging.take(4990, 4999, 5000), [498, 499]);
    assert.deepEqual(new TurnPaging(10).take(0, 3, 0), []);
  });

  it('re-asks for pages whose turns changed and frees far pages, farthest first', () => {
    const paging = new TurnPaging(10);
    for (const p of paging.take(0, 100, 1000)) paging.loaded(p);
    assert.deepEqual(paging.invalidate([5, 7, 55, 2000]), [0, 5]);
    assert.deepEqual(paging.take(0, 9, 1000), [0]);
    assert.deepEqual(paging.evictable(90, 99, 2), [1, 2, 3, 4, 6]);
    paging.forget(1);
    assert.equal(paging.state(1), undefined);
  });
});

describe('timelineLayout', () => {
  it('places spans as percentages of the track, with a minimum width and running spans up to now', () => {
    assert.deepEqual(placeOnTrack({ id: 'a', start: 100, end: 150 }, 100, 200, 0), { id: 'a', left: 0, width: 50, running: false });
    assert.equal(placeOnTrack({ id: 'b', start: 150, end: 150 }, 100, 200, 0).width, MIN_WIDTH_PCT);
    assert.deepEqual(placeOnTrack({ id: 'c', start: 180 }, 100, 200, 190), { id: 'c', left: 80, width: 10, running: true });
  });

  it('puts overlapping spans on separate lanes: lanes equal peak parallelism', () => {
    const lanes = assignLanes([
      { id: 'a', start: 0, end: 10 },
      { id: 'b', start: 2, end: 8 },
      { id: 'c', start: 3, end: 12 },
      { id: 'd', start: 10, end: 15 },
      { id: 'e', start: 12, end: 13 },
    ], 0);
    assert.deepEqual(Object.fromEntries(lanes), { a: 0, b: 1, c: 2, d: 0, e: 1 });
    assert.equal(layoutWaterfall([{ id: 'x', start: 0, end: 1 }, { id: 'y', start: 0, end: 1 }], 0, 1, 0).lanes, 2);
  });
});

describe('outline and search models', () => {
  const summary: TurnSummary = { index: 6, turn: 7, cells: 1, subCalls: 3, errors: 1, final: true, running: false, startedAt: 0, finishedAt: 1500, costUsd: 0.01, firstLine: 'x = 1', label: 'Count the errors per service.' };

  it('labels turns by what they are about, with their markers and proper plurals', () => {
    const label = outlineLabel(summary);
    assert.equal(label.number, '7');
    assert.equal(label.text, '⚠ ✓ Count the errors per service.');
    assert.equal(label.spoken, 'Turn 7: ⚠ ✓ Count the errors per service.');
    assert.deepEqual(label.classes, ['outline-entry', 'has-error', 'is-final']);
    assert.equal(outlineTitle(summary), 'Turn 7: Count the errors per service.\n1 cell, 3 sub-calls, 1 error, $0.01, 1.5 s');
    assert.doesNotMatch(outlineTitle({ ...summary, errors: 2, cells: 0 }), /\(s\)/);
    assert.match(outlineTitle({ ...summary, costUsd: 0 }, true), /local \(no charge\)/);
    assert.match(outlineTitle({ ...summary, finishedAt: undefined, running: true, label: '', firstLine: '' }), /^Turn 7: thinking\n.*, running$/);
    assert.equal(placeholderText(summary), 'Turn 7 · 1 cell · 3 sub-calls · 1 error — Count the errors per service.');
    assert.equal(outlineLabel({ ...summary, label: '' }).text, '⚠ ✓ x = 1', 'the code line when the model stated nothing');
  });

  it('labels a turn of the user\'s own cell as theirs', () => {
    const mine: TurnSummary = { ...summary, errors: 0, final: false, author: 'user', label: '', firstLine: 'mine = 1' };
    const label = outlineLabel(mine);
    assert.deepEqual([label.number, label.text], ['You', 'mine = 1'], '"You" where a root turn has its number');
    assert.equal(label.spoken, 'Your cell: mine = 1', 'announced as the user\'s, never "Turn You"');
    assert.ok(label.classes.includes('is-user'));
    assert.match(outlineTitle(mine), /^Your cell: mine = 1\n/);
    assert.match(placeholderText(mine), /^You · 1 cell/);
  });

  it('turns search input into filters, or nothing to search', () => {
    assert.equal(buildFilters({ query: '  ', errorsOnly: false, model: '', depth: '' }), undefined);
    assert.deepEqual(buildFilters({ query: 'x', errorsOnly: false, model: '', depth: '' }), { errorsOnly: false });
    assert.deepEqual(buildFilters({ query: '', errorsOnly: true, model: 'm', depth: '2' }), { errorsOnly: true, model: 'm', depth: 2 });
    assert.deepEqual(buildFilters({ query: '', errorsOnly: false, model: '', depth: '1' }), { errorsOnly: false, depth: 1 });
    assert.equal(describeResults(0, false, 0), 'No matches.');
    assert.equal(describeResults(1200, true, 500), '1,200 matches (showing the first 500)');
  });
});

describe('highlightPython', () => {
  it('splits highlighted code into lines of scoped text, keeping every character', () => {
    const code = 'def f(x):\n    return "<script>" + 1  # note\n\nprint(f(2))';
    const lines = highlightPython(code);
    assert.equal(lines.length, 4);
    assert.equal(lines.map((l) => l.map((s) => s.text).join('')).join('\n'), code);
    assert.deepEqual(lines[0]![0], { text: 'def', scope: 'keyword' });
    assert.ok(lines[1]!.some((s) => s.scope === 'string' && s.text === '"<script>"'));
    assert.ok(lines[1]!.some((s) => s.scope === 'comment'));
    assert.deepEqual(lines[2], []);
  });

  it('leaves huge code unhighlighted but intact', () => {
    const code = `x = 1\n${'y'.repeat(MAX_HIGHLIGHT_CHARS)}`;
    const lines = highlightPython(code);
    assert.equal(lines.length, 2);
    assert.equal(lines[1]![0]!.scope, undefined);
    assert.equal(lines[1]![0]!.text.length, MAX_HIGHLIGHT_CHARS);
  });
});

describe('slotRange', () => {
  // Slots of varying heights stacked from 0: 40, 600, 40, 40, 600, ...
  const slots = Array.from({ length: 50 }, (_, i) => ({ offsetHeight: i % 3 === 1 ? 600 : 40 }));
  let top = 0;
  const boxes = slots.map((s) => {
    const box = { offsetTop: top, offsetHeight: s.offsetHeight };
    top += s.offsetHeight;
    return box;
  });

  it('finds the first and last slot overlapping a band, by offsets', () => {
    assert.deepEqual(slotRange(boxes, 0, 100), [0, 1]);
    assert.deepEqual(slotRange(boxes, 650, 700), [2, 3]);
    assert.deepEqual(slotRange(boxes, -800, -10), [0, 0]);
    assert.deepEqual(slotRange(boxes, top + 100, top + 200), [49, 49]);
    assert.equal(slotRange([], 0, 10), undefined);
  });

  it('agrees with a linear scan everywhere', () => {
    for (let from = -100; from < top + 100; from += 37) {
      const to = from + 900;
      const overlapping = boxes.map((b, i) => [b, i] as const).filter(([b]) => b.offsetTop + b.offsetHeight >= from && b.offsetTop <= to).map(([, i]) => i);
      const expected: [number, number] = overlapping.length ? [overlapping[0]!, overlapping[overlapping.length - 1]!] : from < 0 ? [0, 0] : [49, 49];
      assert.deepEqual(slotRange(boxes, from, to), expected, `band ${from}..${to}`);
    }
  });
});

it('coverage reads as the share of the lines that can be seen: blank lines and braces are not "unseen"', () => {
  const buckets = [{ lines: 12 }, { lines: 8 }];
  assert.equal(coverageSeenText({ totalLines: 30, seenLines: 20, buckets }), '100% of 20 lines seen (10 short or blank lines not counted)');
  assert.equal(coverageSeenText({ totalLines: 20, seenLines: 5, buckets }), '25% of 20 lines seen');
  assert.equal(coverageSeenText({ totalLines: 3, seenLines: 0, buckets: [{ lines: 0 }] }), '0% of 0 lines seen (3 short or blank lines not counted)');
});
