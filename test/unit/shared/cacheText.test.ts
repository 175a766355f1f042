// What caching did, beside the cost: the same words on the status bar, the notification, the chat and
// the trajectory view, and nothing at all when nothing was cached.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cacheText } from '../../../src/shared/text/cacheText';
import { formatFigures, formatLiveLine, liveLineOf } from '../../../src/shared/text/liveLine';

describe('cache figures in words', () => {
  it('names cached prompt tokens, cached sub-calls and the money saved, each only when non-zero', () => {
    assert.equal(cacheText({ cacheReadTokens: 12_345, savedUsd: 0.04 }), '12k cached · saved $0.04');
    assert.equal(cacheText({ cacheReadTokens: 1_500, savedUsd: 0.0012 }), '1.5k cached · saved $0.0012');
    assert.equal(cacheText({ cacheReadTokens: 800 }), '800 cached', 'an unknown price saves nothing we can name');
    assert.equal(cacheText({ cachedSubCalls: 1, savedUsd: 0.003 }), '1 cached sub-call · saved $0.0030');
    assert.equal(cacheText({ cacheReadTokens: 2_000_000, cachedSubCalls: 3, savedUsd: 1.5 }), '2.00M cached · 3 cached sub-calls · saved $1.50');
  });

  it('says nothing when nothing was cached, or the saving is noise', () => {
    assert.equal(cacheText({}), '');
    assert.equal(cacheText({ cacheReadTokens: 0, cachedSubCalls: 0, savedUsd: 0 }), '');
    assert.equal(cacheText({ savedUsd: 0.000_01 }), '');
    assert.equal(cacheText({ cacheReadTokens: Number.NaN, savedUsd: Number.POSITIVE_INFINITY }), '');
  });

  it('reads a first turn that paid the cache-write premium as an extra cost, not a negative saving', () => {
    assert.equal(cacheText({ savedUsd: -0.002 }), 'cache writes +$0.0020');
    assert.ok(!cacheText({ cacheReadTokens: 10, savedUsd: -0.5 }).includes('saved'));
  });

  it('appends to the live line and the figures only when something was cached', () => {
    const line = { turn: 3, subCalls: 4, inputTokens: 40_000, outputTokens: 1_000, costUsd: 0.02, costUnknown: false, costLocal: false, activity: '' };
    assert.equal(formatLiveLine(line), 'turn 3 · 4 sub-calls · 41k tokens · $0.02');
    assert.equal(formatLiveLine({ ...line, cacheReadTokens: 30_000, savedUsd: 0.04 }), 'turn 3 · 4 sub-calls · 41k tokens · $0.02 · 30k cached · saved $0.04');
    assert.equal(formatFigures({ ...line, cachedSubCalls: 2, savedUsd: 0.01 }), '4 sub-calls · 41k tokens · $0.02 · 2 cached sub-calls · saved $0.01');
  });

  it('carries the cache figures of a run\'s totals into its live line, and leaves them out when absent', () => {
    const totals = { inputTokens: 5_000, outputTokens: 100, costUsd: 0.01, costUnknown: false, subCalls: 2 };
    const plain = liveLineOf(totals, 2, false, 'running cell 2');
    assert.equal('cacheReadTokens' in plain || 'savedUsd' in plain || 'cachedSubCalls' in plain, false);
    const cached = liveLineOf({ ...totals, cacheReadTokens: 4_000, cachedSubCalls: 1, savedUsd: 0.005 }, 2, false, 'running cell 2');
    assert.equal(formatLiveLine(cached), 'turn 2 · 2 sub-calls · 5.1k tokens · $0.01 · 4.0k cached · 1 cached sub-call · saved $0.0050');
  });
});
