// rlm.modelStallTimeoutSeconds and rlm.maxResponseMb: read, converted for the model clients, and
// refused with a typed error naming the setting when out of range.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { modelConfigFor } from '../../../src/vscode/models/modelConfig';
import { readRlmSettings, SettingsError } from '../../../src/vscode/settings/rlmSettings';

const MB = 1024 * 1024;

test('VS Code settings: read, converted, and refused when out of range', () => {
  const read = (values: Record<string, unknown>) => readRlmSettings((k) => values[k]);
  assert.deepEqual(read({ modelStallTimeoutSeconds: 120, maxResponseMb: 16, modelResponseTimeoutSeconds: 90 }).responseLimits, { stallTimeoutMs: 120_000, maxResponseBytes: 16 * MB, responseTimeoutMs: 90_000 });
  assert.throws(() => read({ modelResponseTimeoutSeconds: 0 }), (e: unknown) => e instanceof SettingsError && e.setting === 'modelResponseTimeoutSeconds');
  assert.throws(() => read({ modelStallTimeoutSeconds: 0 }), (e: unknown) => e instanceof SettingsError && e.setting === 'modelStallTimeoutSeconds');
  assert.throws(() => read({ maxResponseMb: '64' }), (e: unknown) => e instanceof SettingsError && e.setting === 'maxResponseMb');
});

test('both reach the model configuration of the root and sub clients', async () => {
  const settings = readRlmSettings((k) => ({ 'root.model': 'm', 'root.baseUrl': 'http://127.0.0.1:9/v1', 'sub.model': 's', modelStallTimeoutSeconds: 5, maxResponseMb: 2, modelResponseTimeoutSeconds: 30 })[k]);
  for (const setting of [settings.root, settings.sub!]) {
    const config = await modelConfigFor(setting, async () => undefined, settings.responseLimits);
    assert.equal(config.stallTimeoutMs, 5000);
    assert.equal(config.maxResponseBytes, 2 * MB);
    assert.equal(config.responseTimeoutMs, 30_000);
  }
});
