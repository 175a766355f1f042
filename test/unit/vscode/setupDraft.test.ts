// The model setup's data: endpoints as a list (custom servers one entry per protocol), the draft
// read from settings with a suggested cost limit, validation sentences, the settings a draft writes,
// and how prices read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { draftFromSettings, listedPriceLabel, priceLabel, resolveRole, savedSetupLogLines, settingsFor, setupEndpoints, SUGGESTED_MAX_COST_USD } from '../../../src/vscode/modelSetup/setupDraft';

const endpoints = setupEndpoints();

test('every preset is one endpoint option, and custom servers are one per wire protocol', () => {
  const ids = endpoints.map((e) => e.id);
  assert.deepEqual(ids, ['vscode', 'openai', 'anthropic', 'openrouter', 'ollama', 'lmstudio', 'vllm', 'custom-openai', 'custom-anthropic']);
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

test('a saved setup is logged with each model\'s protocol, name and server, and the cost limit', () => {
  const root = { provider: 'openai' as const, baseUrl: 'http://127.0.0.1:8080/v1', model: 'big' };
  assert.deepEqual(savedSetupLogLines(root, undefined, 1), ['Root model set to openai big at http://127.0.0.1:8080/v1', 'Sub-calls use the root model', 'Cost limit set to $1 per run']);
  // A sub model equal to the root (up to a trailing slash) is written as "use the root", and logged so.
  assert.equal(savedSetupLogLines(root, { ...root, baseUrl: 'http://127.0.0.1:8080/v1/' }, 0)[1], 'Sub-calls use the root model');
  assert.deepEqual(savedSetupLogLines(root, { provider: 'anthropic', baseUrl: '', model: 'small' }, 0).slice(1), ['Sub model set to anthropic small at the official endpoint', 'No cost limit set']);
  assert.equal(savedSetupLogLines(root, undefined, 2.5)[2], 'Cost limit set to $2.5 per run');
});

test('prices read as local, unknown, or dollars per million tokens', () => {
  assert.equal(priceLabel(null, true), 'local (no charge)');
  assert.equal(priceLabel(null, false), 'price unknown');
  assert.equal(priceLabel({ inputPerMTok: 3, outputPerMTok: 15 }, false), '$3 in / $15 out per M tokens');
  assert.equal(priceLabel({ inputPerMTok: 0.4, outputPerMTok: 1.6 }, false), '$0.4 in / $1.6 out per M tokens');
});

test('VS Code models are a keyless choice for root and sub; with none the choice says so and is never the default', () => {
  const none = setupEndpoints().find((e) => e.id === 'vscode');
  assert.equal(none?.label, 'VS Code language models (none available)');
  assert.match(none?.unavailable ?? '', /no language model here.*GitHub Copilot Chat/);
  assert.equal(none?.takesKey, false);
  const fresh = draftFromSettings({ provider: 'openai', baseUrl: '', model: '' }, undefined, undefined, setupEndpoints());
  assert.equal(fresh.root.endpointId, 'openai', 'an unavailable VS Code choice is not offered first');

  const offered = setupEndpoints(['copilot-gpt-4o', 'copilot-mini']);
  const vscode = offered.find((e) => e.id === 'vscode');
  assert.equal(vscode?.unavailable, undefined);
  assert.equal(vscode?.suggestedModel, 'copilot-gpt-4o');
  assert.match(vscode?.description ?? '', /^2 models .*no key, included in your plan$/);
  assert.ok(offered.filter((e) => e.id !== 'vscode').every((e) => e.takesKey && e.modelSource === 'the server'));
  // Nothing saved yet: a model VS Code already has comes first (no key needed).
  const keyless = draftFromSettings({ provider: 'openai', baseUrl: '', model: '' }, undefined, undefined, offered);
  assert.deepEqual(keyless.root, { endpointId: 'vscode', baseUrl: '', model: 'copilot-gpt-4o', apiKey: '' });
  // A saved choice is read back as it is, root and sub alike.
  const saved = draftFromSettings({ provider: 'openai', baseUrl: '', model: 'gpt-4.1' }, { provider: 'vscode', baseUrl: '', model: 'copilot-mini' }, 1, offered);
  assert.equal(saved.root.endpointId, 'openai');
  assert.deepEqual(saved.sub, { endpointId: 'vscode', baseUrl: '', model: 'copilot-mini', apiKey: '' });

  const resolved = resolveRole({ endpointId: 'vscode', baseUrl: 'ignored', model: ' copilot-mini ', apiKey: 'ignored' }, offered, 'sub model');
  assert.deepEqual(typeof resolved === 'string' ? resolved : resolved.setting, { provider: 'vscode', baseUrl: '', model: 'copilot-mini' });
  const written = Object.fromEntries(settingsFor({ provider: 'openai', baseUrl: '', model: 'gpt-4.1' }, { provider: 'vscode', baseUrl: '', model: 'copilot-mini' }, 1));
  assert.deepEqual([written['sub.provider'], written['sub.baseUrl'], written['sub.model']], ['vscode', '', 'copilot-mini']);
});

test('a listed model reads the price a run will charge: rlm.prices first, then no charge on the local network, then the table', () => {
  const table = { inputPerMTok: 0.15, outputPerMTok: 0.6 };
  assert.equal(listedPriceLabel('gpt-4o-mini', table, '', undefined), '$0.15 in / $0.6 out per M tokens');
  assert.equal(listedPriceLabel('qwen', null, 'http://192.168.1.20:8000/v1', undefined), 'local (no charge)', 'a server on the local network is no charge, as in a run');
  assert.equal(listedPriceLabel('qwen', null, 'https://example.com/v1', { qwen: { inputPerMTok: 2, outputPerMTok: 4 } }), '$2 in / $4 out per M tokens', 'rlm.prices names a price');
  assert.equal(listedPriceLabel('qwen', null, 'http://localhost:8000/v1', { qwen: { inputPerMTok: 2, outputPerMTok: 4 } }), '$2 in / $4 out per M tokens', 'a price set for a local model wins, as in a run');
  assert.equal(listedPriceLabel('mystery', null, 'https://example.com/v1', {}), 'price unknown');
});
