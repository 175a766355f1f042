// The one set of formatters every surface uses (view, sidebar, progress, CLI, exports).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatBytes, formatCost, formatDuration, formatLiveLine, formatTokenCount, formatTokenPair } from '../../../src/shared/format';

describe('shared formatters', () => {
  it('never shows an unknown cost as $0, and keeps sub-cent costs readable', () => {
    assert.equal(formatCost(null), 'cost unknown');
    assert.equal(formatCost(undefined, true), 'cost unknown');
    assert.equal(formatCost(0, true), 'cost unknown', 'nothing known is not a known $0');
    assert.equal(formatCost(0), '$0.00', 'a local server is a known $0');
    assert.deepEqual([0.00012, 0.0012, 0.0062, 0.01, 0.75, 1.5].map((c) => formatCost(c)), ['$0.00012', '$0.0012', '$0.0062', '$0.01', '$0.75', '$1.50']);
    assert.equal(formatCost(0.5, true), '≥ $0.50', 'partly unknown is a lower bound');
    assert.equal(formatCost(Number.NaN), 'cost unknown');
  });

  it('says "included in your plan" for calls paid by a subscription, never $0.00', () => {
    assert.equal(formatCost(0, false, true), 'included in your plan');
    assert.equal(formatCost(null, false, true), 'included in your plan');
    assert.equal(formatCost(0.25, false, true), '$0.25 + included in your plan', 'a mixed run shows the priced part and the plan');
    assert.equal(formatCost(0.25, true, true), '≥ $0.25 + included in your plan');
    assert.equal(formatCost(0, true, true), 'cost unknown + included in your plan');
    assert.equal(
      formatLiveLine({ turn: 2, subCalls: 1, inputTokens: 1000, outputTokens: 200, costUsd: 0, costUnknown: false, includedInPlan: true, activity: 'x' }),
      'turn 2 · 1 sub-call · 1.2k tokens · included in your plan',
    );
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
    assert.equal(formatLiveLine({ turn: 2, subCalls: 1, inputTokens: 15_000, outputTokens: 200, costUsd: 0.0042, costUnknown: false, activity: 'waiting for the model' }), 'turn 2 · 1 sub-call · 15k tokens · $0.0042');
  });
});
