// The one set of formatters every surface uses (view, sidebar, progress, CLI, exports).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { costText, costTextShort } from '../../../src/shared/text/costText';
import { formatBytes, formatCost, formatCount, formatDuration, formatTokenCount, formatTokenPair, plural } from '../../../src/shared/text/format';
import { formatLiveLine } from '../../../src/shared/text/liveLine';

describe('shared formatters', () => {
  it('never shows an unknown cost as $0, and keeps sub-cent costs readable', () => {
    assert.equal(formatCost(null), 'price unknown');
    assert.equal(formatCost(undefined, true), 'price unknown');
    assert.equal(formatCost(0, true), 'price unknown', 'nothing known is not a known $0');
    assert.equal(formatCost(0), '$0.00', 'an amount of 0 (a saving of nothing) is an amount');
    assert.deepEqual([0.00012, 0.0012, 0.0062, 0.01, 0.75, 1.5].map((c) => formatCost(c)), ['$0.00012', '$0.0012', '$0.0062', '$0.01', '$0.75', '$1.50']);
    assert.equal(formatCost(0.5, true), '≥ $0.50', 'partly unknown is a lower bound');
    assert.equal(formatCost(Number.NaN), 'price unknown');
  });

  it('says "included in your plan" for calls paid by a subscription, never $0.00', () => {
    const plan = (usd: number | null, unknown: boolean): string => costText({ usd, unknown, local: false, includedInPlan: true });
    assert.equal(plan(0, false), 'included in your plan');
    assert.equal(plan(null, false), 'included in your plan');
    assert.equal(plan(0.25, false), '$0.25 + included in your plan', 'a mixed run shows the priced part and the plan');
    assert.equal(plan(0.25, true), '≥ $0.25 + included in your plan');
    assert.equal(plan(0, true), 'price unknown + included in your plan');
    assert.equal(
      formatLiveLine({ turn: 2, subCalls: 1, inputTokens: 1000, outputTokens: 200, costUsd: 0, costUnknown: false, costLocal: false, includedInPlan: true, activity: 'x' }),
      'turn 2 · 1 sub-call · 1.2k tokens · included in your plan',
    );
    // The view's and the chat's cost text say the same, even for a plan model served without a URL.
    assert.equal(costText({ usd: 0, unknown: false, local: true, includedInPlan: true }), 'included in your plan');
    assert.equal(costTextShort({ usd: 0.4, unknown: true, local: false, includedInPlan: true }), '≥ $0.40 + included in your plan');
  });

  it('formats token counts compactly or exactly', () => {
    assert.deepEqual([999, 1234, 56_000, 2_500_000, 25_000_000].map(formatTokenCount), ['999', '1.2k', '56k', '2.50M', '25.0M']);
    assert.equal(formatTokenPair(12_345, 678), '12,345 in / 678 out');
  });

  it('formats durations without "1000 ms" or "60.0 s" at the edges', () => {
    assert.deepEqual([450, 999.4, 999.6, 2345, 59_940, 59_960, 125_000, 119_700].map(formatDuration), ['450 ms', '999 ms', '1.0 s', '2.3 s', '59.9 s', '1 min 0 s', '2 min 5 s', '2 min 0 s']);
    assert.equal(formatDuration(undefined), '–');
  });

  it('formats sizes and the live line', () => {
    assert.deepEqual([512, 3500, 5 * 1024 * 1024].map(formatBytes), ['512 B', '3.4 KB', '5.0 MB']);
    const line = { turn: 2, subCalls: 1, inputTokens: 15_000, outputTokens: 200, costUsd: 0.0042, costUnknown: false, costLocal: false, activity: 'the model is thinking' };
    assert.equal(formatLiveLine(line), 'turn 2 · 1 sub-call · 15k tokens · $0.0042');
    assert.equal(formatLiveLine({ ...line, subCalls: 3, costUsd: 0, costLocal: true }), 'turn 2 · 3 sub-calls · 15k tokens · local (no charge)');
    assert.equal(formatLiveLine({ ...line, costUsd: null, costUnknown: true }), 'turn 2 · 1 sub-call · 15k tokens · price unknown');
    assert.equal(formatLiveLine({ ...line, turn: 0, subCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: null }), 'starting · 0 sub-calls · 0 tokens · no cost yet');
  });

  it('says what a cost is: priced, local, unknown or a lower bound; never "$0.00" for an unknown price', () => {
    assert.equal(costText({ usd: 1.25, unknown: false, local: false }), '$1.25');
    assert.equal(costText({ usd: 0, unknown: false, local: true }), 'local (no charge)');
    assert.equal(costText({ usd: null, unknown: false, local: true }), 'local (no charge)');
    assert.equal(costText({ usd: 0, unknown: true, local: false }), 'price unknown');
    assert.equal(costText({ usd: null, unknown: true, local: true }), 'price unknown', 'an unpriced sub model makes a local root run unknown');
    assert.equal(costText({ usd: 0.5, unknown: true, local: false }), '≥ $0.50 (some prices unknown)');
    assert.equal(costTextShort({ usd: 0.5, unknown: true, local: false }), '≥ $0.50');
    assert.equal(costText({ usd: 0, unknown: false, local: false }), '$0.00', 'a price the user set to 0 is theirs');
    assert.equal(costText({ usd: null, unknown: false, local: false }), 'no cost yet', 'before the first call');
    assert.equal(costText({ usd: 0.25, unknown: false, local: true }), '$0.25', 'a price set for a local model is shown');
  });

  it('counts with proper plurals', () => {
    assert.deepEqual([0, 1, 2, 1200].map((n) => plural(n, 'sub-call')), ['0 sub-calls', '1 sub-call', '2 sub-calls', '1,200 sub-calls']);
    assert.equal(plural(1, 'child', 'children'), '1 child');
  });

  it('formats counts with en-US separators, as toLocaleString(\'en-US\') did, whatever the default locale', () => {
    const cases: Array<[number, string]> = [[0, '0'], [7, '7'], [999, '999'], [1000, '1,000'], [1_234_567, '1,234,567'], [-4200, '-4,200'], [1234.5678, '1,234.568']];
    for (const [n, text] of cases) assert.equal(formatCount(n), text, String(n));
  });

  it('groups every kind of number exactly as Intl en-US does (whole counts by hand, the rest through Intl)', () => {
    const reference = new Intl.NumberFormat('en-US');
    const edges = [1, 9, 10, 99, 100, 999_999, 1_000_000, 10_000_000, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 2 ** 60, -0, Number.NaN, Infinity, -Infinity, 0.5, -0.001, 1e21];
    // A deterministic spread over every digit length and sign, so grouping is checked at each width.
    let seed = 17;
    const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
    const spread = Array.from({ length: 2000 }, (_, i) => Math.floor((next() / 2 ** 31) * 10 ** (1 + (i % 16))) * (i % 3 === 0 ? -1 : 1));
    for (const n of [...edges, ...spread]) assert.equal(formatCount(n), reference.format(n), String(n));
  });
});
