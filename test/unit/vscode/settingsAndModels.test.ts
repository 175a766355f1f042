import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { MODEL_PRESETS, normalizeBaseUrl, presetFor, validateBaseUrl } from '../../../src/vscode/models/modelPresets';
import { ApiKeyStore, describeKeySlot, secretKeyName } from '../../../src/vscode/models/secretKeys';
import { SettingsError, isModelConfigured, readRlmSettings } from '../../../src/vscode/settings/rlmSettings';

const read = (values: Record<string, unknown>) => readRlmSettings((k) => values[k]);

test('defaults: nothing configured, sub model the same as root, no cost limit', () => {
  const s = read({});
  assert.equal(isModelConfigured(s), false);
  assert.equal(s.sub, undefined);
  assert.deepEqual(s.limits, {});
  assert.equal(s.contextLimitBytes, 64 * 1024 * 1024);
  assert.equal(s.replMemoryMb, 2048);
  assert.equal(s.confirmBeforeSending, true);
});

test('empty sub fields take the root values field by field; another provider defaults to its own endpoint', () => {
  const root = { 'root.provider': 'openai', 'root.baseUrl': 'http://localhost:11434/v1', 'root.model': 'big' };
  assert.deepEqual(read({ ...root, 'sub.model': 'small' }).sub, { provider: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'small' });
  assert.deepEqual(read({ ...root, 'sub.provider': 'anthropic', 'sub.model': 'haiku' }).sub, { provider: 'anthropic', baseUrl: '', model: 'haiku' });
});

test('bad values are typed errors naming the setting', () => {
  assert.throws(() => read({ 'root.provider': 'gemini' }), (e: unknown) => e instanceof SettingsError && e.setting === 'root.provider');
  assert.throws(() => read({ maxIterations: 2.5 }), /rlm.maxIterations is 2.5, but it must be an integer ≥ 1/);
  assert.throws(() => read({ include: 'src/**' }), /list of glob strings/);
  assert.throws(() => read({ replMemoryMb: 16 }), /rlm.replMemoryMb is 16, but it must be a number ≥ 64/);
  assert.equal(read({ replMemoryMb: 512 }).replMemoryMb, 512);
});

test('presets cover the issue list, local servers need no key', () => {
  assert.deepEqual(MODEL_PRESETS.map((p) => p.label), ['VS Code language models', 'OpenAI', 'Anthropic', 'OpenRouter', 'Ollama', 'LM Studio', 'vLLM', 'Custom…']);
  assert.equal(MODEL_PRESETS.find((p) => p.id === 'ollama')?.baseUrl, 'http://localhost:11434/v1');
  assert.equal(MODEL_PRESETS.find((p) => p.id === 'lmstudio')?.baseUrl, 'http://localhost:1234/v1');
  assert.equal(presetFor('openai', 'HTTP://localhost:11434/v1/')?.id, 'ollama');
  assert.equal(presetFor('anthropic', '')?.id, 'anthropic');
  assert.equal(presetFor('vscode', '')?.id, 'vscode');
});

test('base URLs are validated with the fix in the message', () => {
  assert.equal(validateBaseUrl(''), undefined);
  assert.equal(validateBaseUrl('http://localhost:1234/v1'), undefined);
  assert.match(validateBaseUrl('localhost:1234') ?? '', /http/);
  assert.match(validateBaseUrl('https://user:pw@x.org/v1') ?? '', /credentials/);
  assert.equal(normalizeBaseUrl('HTTPS://Api.Example.com/v1/'), 'https://api.example.com/v1');
});

test('keys live under one secret per provider and endpoint, and Clear removes them all', async () => {
  const secrets = new Map<string, string>();
  const state = new Map<string, unknown>();
  const store = new ApiKeyStore(
    { get: async (k) => secrets.get(k), store: async (k, v) => void secrets.set(k, v), delete: async (k) => void secrets.delete(k) },
    { get: <T>(k: string) => state.get(k) as T | undefined, update: async (k, v) => void state.set(k, v) },
  );
  await store.set('openai', '', ' sk-1 ');
  await store.set('openai', 'http://localhost:1234/v1/', 'lm');
  assert.equal(await store.get('openai', undefined), 'sk-1');
  assert.equal(await store.get('openai', 'http://LOCALHOST:1234/v1'), 'lm');
  assert.equal(await store.get('anthropic', ''), undefined);
  assert.equal(secretKeyName('openai', ''), 'rlm.apiKey/openai/default');
  assert.equal(describeKeySlot('anthropic', ''), 'anthropic at api.anthropic.com');
  await assert.rejects(store.set('openai', '', '  '), /empty API key/);
  assert.equal(await store.clearAll(), 2);
  assert.equal(secrets.size, 0);
});

test('the "vscode" provider is accepted for root and sub, drops a left-over base URL, and has a concurrency setting', () => {
  const s = read({ 'root.provider': 'vscode', 'root.baseUrl': 'http://localhost:11434/v1', 'root.model': 'gpt-4o', 'sub.provider': 'vscode', 'sub.model': 'gpt-4o-mini' });
  assert.deepEqual(s.root, { provider: 'vscode', baseUrl: '', model: 'gpt-4o' });
  assert.deepEqual(s.sub, { provider: 'vscode', baseUrl: '', model: 'gpt-4o-mini' });
  assert.equal(s.vscodeModelConcurrency, 4);
  assert.equal(read({ vscodeModelConcurrency: 2 }).vscodeModelConcurrency, 2);
  assert.throws(() => read({ vscodeModelConcurrency: 0 }), (e: unknown) => e instanceof SettingsError && e.setting === 'vscodeModelConcurrency');
  assert.throws(() => read({ 'root.provider': 'copilot' }), /"openai", "anthropic", "vscode" or empty/);
});

test('rlm.prices: USD per million tokens by model, checked, and injected into the model config', async () => {
  const { pricingFor } = await import('../../../src/vscode/models/modelConfig');
  const settings = read({ 'root.model': 'mystery', prices: { mystery: { input: 0.15, output: 0.6 } } });
  assert.deepEqual(settings.prices, { mystery: { inputPerMTok: 0.15, outputPerMTok: 0.6 } });
  assert.deepEqual(pricingFor(settings.root, settings.prices), { pricing: { inputPerMTok: 0.15, outputPerMTok: 0.6 } });
  assert.deepEqual(pricingFor({ provider: 'openai', baseUrl: 'http://192.168.1.5:8000/v1', model: 'other' }, settings.prices).pricing?.inputPerMTok, 0, 'a server on the local network costs nothing');
  assert.deepEqual(pricingFor({ provider: 'openai', baseUrl: '', model: 'other' }, settings.prices), {}, 'no price: the client decides (table, else unknown)');
  assert.deepEqual(read({}).prices, {});
  assert.throws(() => read({ prices: { mystery: { input: -1, output: 1 } } }), SettingsError);
  assert.throws(() => read({ prices: { mystery: 0.5 } }), /rlm\.prices\["mystery"\]/);
  assert.throws(() => read({ prices: [] }), SettingsError);
  // Prompt-cache rates are optional, checked like the others, and reach the model config.
  const cached = read({ 'root.model': 'mystery', prices: { mystery: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } } });
  assert.deepEqual(pricingFor(cached.root, cached.prices), { pricing: { inputPerMTok: 3, outputPerMTok: 15, cacheReadPerMTok: 0.3, cacheWritePerMTok: 3.75 } });
  assert.throws(() => read({ prices: { mystery: { input: 1, output: 1, cacheRead: -0.1 } } }), /cacheRead/);
  assert.throws(() => read({ prices: { mystery: { input: 1, output: 1, cacheWrite: '1' } } }), SettingsError);
});

test('the Settings UI order of every rlm.* setting is its own, so the editor shows them in a fixed order', () => {
  const root = join(__dirname, '../../..');
  const properties = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { order?: number }> } } }).contributes.configuration.properties;
  const byOrder = new Map<number, string[]>();
  for (const [name, spec] of Object.entries(properties)) {
    assert.equal(typeof spec.order, 'number', `${name} has an order`);
    byOrder.set(spec.order!, [...(byOrder.get(spec.order!) ?? []), name]);
  }
  const shared = [...byOrder.values()].filter((names) => names.length > 1);
  assert.deepEqual(shared, [], 'no two settings share an order');
  // The limits on what is sent read from the smallest to the largest.
  assert.ok(properties['rlm.contextLimitMb']!.order! < properties['rlm.workspaceLimitGb']!.order!);
});
