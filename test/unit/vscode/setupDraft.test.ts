// The model setup's data: endpoints as a list (custom servers one entry per protocol), the draft
// read from settings with a suggested cost limit, validation sentences, the settings a draft writes,
// and how prices read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { draftFromSettings, listedPriceLabel, priceLabel, resolveRole, settingsFor, setupEndpoints, SUGGESTED_MAX_COST_USD } from '../../../src/vscode/models/setupDraft';

const endpoints = setupEndpoints();

test('every preset is one endpoint option, and custom servers are one per wire protocol', () => {
  const ids = endpoints.map((e) => e.id);
  assert.deepEqual(ids, ['openai', 'anthropic', 'openrouter', 'ollama', 'lmstudio', 'vllm', 'custom-openai', 'custom-anthropic']);
  assert.ok(endpoints.filter((e) => e.editableUrl).every((e) => e.id.startsWith('custom-')));
});

test('a fresh setup suggests the first endpoint, its model and a cost limit; a saved one is read back', () => {
  const fresh = draftFromSettings({ provider: 'openai', baseUrl: '', model: '' }, undefined, undefined, endpoints);
  assert.deepEqual(fresh, { root: { endpointId: 'openai', baseUrl: '', model: 'gpt-4.1-mini', apiKey: '' }, maxCostUsd: SUGGESTED_MAX_COST_USD });
  const saved = draftFromSettings(
    { provider: 'openai', baseUrl: 'http://localhost:11434/v1/', model: 'qwen' },
    { provider: 'openai', baseUrl: 'http://gpu-box:9000/v1', model: 'tiny' },
    2.5,
    endpoints,
  );
  assert.equal(saved.root.endpointId, 'ollama');
  assert.deepEqual(saved.sub, { endpointId: 'custom-openai', baseUrl: 'http://gpu-box:9000/v1', model: 'tiny', apiKey: '' });
  assert.equal(saved.maxCostUsd, 2.5);
});

test('a draft resolves to a setting, or to a sentence naming what is missing', () => {
  assert.equal(resolveRole({ endpointId: 'custom-openai', baseUrl: '', model: 'm', apiKey: '' }, endpoints, 'sub model'), "Enter the URL of the sub model's server.");
  assert.equal(resolveRole({ endpointId: 'ollama', baseUrl: '', model: ' ', apiKey: '' }, endpoints, 'root model'), "Pick or type the root model's name.");
  assert.match(String(resolveRole({ endpointId: 'custom-openai', baseUrl: 'ftp://x', model: 'm', apiKey: '' }, endpoints, 'root model')), /http:\/\/ or https:\/\//);
  assert.equal(resolveRole({ endpointId: 'nope', baseUrl: '', model: 'm', apiKey: '' }, endpoints, 'root model'), 'Choose where the root model runs.');
  const ok = resolveRole({ endpointId: 'ollama', baseUrl: 'ignored', model: ' qwen ', apiKey: '' }, endpoints, 'root model');
  assert.deepEqual(typeof ok === 'string' ? ok : ok.setting, { provider: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'qwen' });
});

test('a sub model equal to the root is written as empty sub settings; a different one in full', () => {
  const root = { provider: 'openai' as const, baseUrl: 'http://a/v1', model: 'big' };
  const same = Object.fromEntries(settingsFor(root, { ...root, baseUrl: 'http://a/v1/' }, 0));
  assert.deepEqual([same['sub.provider'], same['sub.baseUrl'], same['sub.model'], same.maxCostUsd], ['', '', '', 0]);
  const other = Object.fromEntries(settingsFor(root, { provider: 'anthropic', baseUrl: '', model: 'small' }, 1.5));
  assert.deepEqual([other['sub.provider'], other['sub.model'], other.maxCostUsd], ['anthropic', 'small', 1.5]);
});

test('prices read as local, unknown, or dollars per million tokens', () => {
  assert.equal(priceLabel(null, true), 'local (no charge)');
  assert.equal(priceLabel(null, false), 'price unknown');
  assert.equal(priceLabel({ inputPerMTok: 3, outputPerMTok: 15 }, false), '$3 in / $15 out per M tokens');
  assert.equal(priceLabel({ inputPerMTok: 0.4, outputPerMTok: 1.6 }, false), '$0.4 in / $1.6 out per M tokens');
});

test('a listed model reads the price a run will charge: rlm.prices first, then no charge on the local network, then the table', () => {
  const table = { inputPerMTok: 0.15, outputPerMTok: 0.6 };
  assert.equal(listedPriceLabel('gpt-4o-mini', table, '', undefined), '$0.15 in / $0.6 out per M tokens');
  assert.equal(listedPriceLabel('qwen', null, 'http://192.168.1.20:8000/v1', undefined), 'local (no charge)', 'a server on the local network is no charge, as in a run');
  assert.equal(listedPriceLabel('qwen', null, 'https://example.com/v1', { qwen: { inputPerMTok: 2, outputPerMTok: 4 } }), '$2 in / $4 out per M tokens', 'rlm.prices names a price');
  assert.equal(listedPriceLabel('qwen', null, 'http://localhost:8000/v1', { qwen: { inputPerMTok: 2, outputPerMTok: 4 } }), '$2 in / $4 out per M tokens', 'a price set for a local model wins, as in a run');
  assert.equal(listedPriceLabel('mystery', null, 'https://example.com/v1', {}), 'price unknown');
});
