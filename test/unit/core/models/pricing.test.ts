// Prices: table lookups with snapshots and aliases, unknown models as null (never 0), local as a
// known $0, configuration overrides, and the cache arithmetic.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeCostUsd, isNoChargeEndpoint, lookupPricing, makeUsage, priceStatus, resolvePricing, userPricing } from '../../../../src/core/models/pricing';
import { estimateMessagesTokens, estimateTokens } from '../../../../src/core/models/tokenEstimate';

test('known models resolve, including dated snapshots, aliases and router prefixes', () => {
  assert.deepEqual(lookupPricing('gpt-4o'), { inputPerMTok: 2.5, outputPerMTok: 10, cacheReadPerMTok: 1.25 });
  assert.equal(lookupPricing('gpt-4o-2024-08-06')?.inputPerMTok, 2.5);
  assert.equal(lookupPricing('gpt-4o-2024-05-13')?.inputPerMTok, 5, 'the older snapshot has its own price');
  assert.equal(lookupPricing('gpt-4o-mini')?.inputPerMTok, 0.15);
  assert.equal(lookupPricing('gpt-4.1-nano')?.outputPerMTok, 0.4);
  assert.equal(lookupPricing('gpt-5-mini-2025-08-07')?.inputPerMTok, 0.25);
  assert.equal(lookupPricing('o4-mini')?.outputPerMTok, 4.4);
  assert.equal(lookupPricing('openai/gpt-4o-mini')?.inputPerMTok, 0.15);
  assert.equal(lookupPricing('claude-sonnet-4-5-20250929')?.inputPerMTok, 3);
  assert.equal(lookupPricing('claude-3-5-haiku-latest')?.inputPerMTok, 0.8);
  assert.equal(lookupPricing('claude-opus-4-1-20250805')?.outputPerMTok, 75);
  assert.equal(lookupPricing('claude-opus-4-5')?.outputPerMTok, 25);
  assert.equal(lookupPricing('claude-haiku-4-5-20251001')?.cacheWritePerMTok, 1.25);
  assert.equal(lookupPricing('GPT-4O')?.inputPerMTok, 2.5, 'case-insensitive');
  // 2026-12 additions (Anthropic's pricing page; OpenAI's gpt-5.2).
  assert.equal(lookupPricing('claude-opus-4-6')?.inputPerMTok, 5);
  assert.equal(lookupPricing('claude-sonnet-4-6')?.cacheReadPerMTok, 0.3);
  assert.equal(lookupPricing('claude-fable-5-1')?.cacheReadPerMTok, 0.25);
  assert.equal(lookupPricing('claude-fable-5')?.cacheReadPerMTok, 1, 'not the 5.1 cache price');
  assert.equal(lookupPricing('gpt-5.2')?.outputPerMTok, 14);
  assert.equal(lookupPricing('gpt-5.2-pro')?.inputPerMTok, 21, 'the longer key wins');
});

test('a model that merely starts like a listed one is unknown, not mispriced', () => {
  for (const model of ['gpt-4o-audio-preview', 'gpt-5.4', 'gpt-5.2-codex', 'claude-opus-4-9', 'o3-deep-research', 'llama3.1:8b', 'qwen2.5-coder', '']) {
    assert.equal(lookupPricing(model), undefined, model);
  }
});

test('resolvePricing: configuration wins, then local $0, then the table, else null', () => {
  const custom = { inputPerMTok: 9, outputPerMTok: 9 };
  assert.equal(resolvePricing({ model: 'gpt-4o', pricing: custom }, false), custom);
  assert.equal(resolvePricing({ model: 'my-local', pricing: custom }, true), custom);
  assert.deepEqual(resolvePricing({ model: 'gpt-4o' }, true), { inputPerMTok: 0, outputPerMTok: 0, cacheReadPerMTok: 0, cacheWritePerMTok: 0 });
  assert.equal(resolvePricing({ model: 'gpt-4o' }, false)?.inputPerMTok, 2.5);
  assert.equal(resolvePricing({ model: 'mystery-model' }, false), null);
  assert.throws(() => resolvePricing({ model: 'm', pricing: { inputPerMTok: -1, outputPerMTok: 1 } }, false), /pricing.inputPerMTok .* non-negative/);
  assert.throws(() => resolvePricing({ model: 'm', pricing: { inputPerMTok: 1, outputPerMTok: Number.NaN } }, false), /outputPerMTok/);
});

test('computeCostUsd prices uncached, cached and written input apart, and keeps unknown as null', () => {
  const pricing = { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 };
  assert.equal(computeCostUsd({ inputTokens: 1_000_000, outputTokens: 1_000_000 }, pricing), 18);
  const cached = computeCostUsd({ inputTokens: 3_000_000, outputTokens: 0, cacheReadTokens: 1_000_000, cacheWriteTokens: 1_000_000 }, pricing);
  assert.ok(Math.abs((cached ?? NaN) - (3 + 0.3 + 3.75)) < 1e-9);
  assert.equal(computeCostUsd({ inputTokens: 1_000_000, outputTokens: 0, cacheReadTokens: 1_000_000 }, { inputPerMTok: 2, outputPerMTok: 1 }), 2, 'cache price defaults to input price');
  assert.equal(computeCostUsd({ inputTokens: 500, outputTokens: 20 }, null), null);
  assert.equal(computeCostUsd({ inputTokens: 500, outputTokens: 20 }, { inputPerMTok: 0, outputPerMTok: 0 }), 0);
});

test('makeUsage keeps token counts even when the cost is unknown', () => {
  assert.deepEqual(makeUsage({ inputTokens: 10, outputTokens: 5 }, null, false), { inputTokens: 10, outputTokens: 5, costUsd: null });
  assert.deepEqual(makeUsage({ inputTokens: 10, outputTokens: 5, cacheReadTokens: 4 }, null, true), { inputTokens: 10, outputTokens: 5, cacheReadTokens: 4, costUsd: null, estimated: true });
});

test('estimateTokens is about four characters per token and refuses non-strings', () => {
  assert.equal(estimateTokens(''), 0);
  assert.equal(estimateTokens('abcd'), 1);
  assert.equal(estimateTokens('abcde'), 2);
  assert.equal(estimateTokens('x'.repeat(4_000_000)), 1_000_000);
  assert.equal(estimateMessagesTokens([{ role: 'user', content: 'abcd' }, { role: 'assistant', content: '' }]), 1 + 4 + 4);
  assert.throws(() => estimateTokens(undefined as unknown as string), /expects a string, got undefined/);
});

test('matches a user price like the built-in table: snapshots and router prefixes', () => {
  const table = { 'my-model': { inputPerMTok: 0.15, outputPerMTok: 0.6 }, 'openrouter/special': { inputPerMTok: 1, outputPerMTok: 2 } };
  assert.deepEqual(userPricing('my-model-20250101', table), table['my-model']);
  assert.deepEqual(userPricing('vendor/my-model', table), table['my-model']);
  assert.deepEqual(userPricing('openrouter/special', table), table['openrouter/special']);
  assert.equal(userPricing('my-model-large', table), undefined, 'another model that merely starts the same is not priced');
  assert.equal(userPricing('my-model', undefined), undefined);
});

test('knows servers on this machine and the local network, and nothing else, as no charge', () => {
  for (const url of ['http://localhost:11434/v1', 'http://127.0.0.1:8000', 'http://[::1]:1234/v1', 'http://10.0.0.5/v1', 'http://192.168.1.20:8000/v1', 'http://172.20.0.3/v1', 'http://gpu-box.local:8080/v1', 'http://[fd12:3456::1]/v1']) {
    assert.equal(isNoChargeEndpoint(url), true, url);
  }
  for (const url of ['', undefined, 'https://api.openai.com/v1', 'http://172.32.0.1/v1', 'https://openrouter.ai/api/v1', 'not a url', 'http://8.8.8.8/v1']) {
    assert.equal(isNoChargeEndpoint(url), false, String(url));
  }
});

test('says before any call whether a model is priced, local or unknown', () => {
  assert.equal(priceStatus('gpt-4o-mini', ''), 'priced');
  assert.equal(priceStatus('llama3', 'http://localhost:11434/v1'), 'local');
  assert.equal(priceStatus('mystery-model', 'https://example.com/v1'), 'unknown');
  assert.equal(priceStatus('mystery-model', 'https://example.com/v1', { 'mystery-model': { inputPerMTok: 1, outputPerMTok: 1 } }), 'priced');
});
