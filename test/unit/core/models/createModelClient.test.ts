// Configuration checks made before any request, endpoint resolution, and key redaction.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createModelClient } from '../../../../src/core/models/createModelClient';
import { isLocalBaseUrl, resolveEndpoint } from '../../../../src/core/models/endpoint';
import { ModelConfigError } from '../../../../src/core/models/modelErrors';
import type { ModelConfig } from '../../../../src/core/models/modelTypes';
import { redactSecrets } from '../../../../src/core/models/sdkErrorMapping';

function configError(config: ModelConfig): ModelConfigError {
  try {
    createModelClient(config);
  } catch (error) {
    assert.ok(error instanceof ModelConfigError, String(error));
    return error;
  }
  throw new Error(`expected a ModelConfigError for ${JSON.stringify(config)}`);
}

test('a remote endpoint without a key is an actionable config error', () => {
  const openai = configError({ provider: 'openai', model: 'gpt-4o', apiKey: '  ' });
  assert.match(openai.message, /https:\/\/api\.openai\.com\/v1/);
  assert.match(openai.message, /OPENAI_API_KEY/);
  assert.match(openai.message, /local server/);
  const anthropic = configError({ provider: 'anthropic', baseUrl: 'https://proxy.example.com', model: 'claude-sonnet-4-5' });
  assert.match(anthropic.message, /ANTHROPIC_API_KEY/);
  assert.equal(anthropic.endpoint, 'https://proxy.example.com');
});

test('the vscode provider cannot be built outside the editor, and says so', () => {
  const error = configError({ provider: 'vscode', model: 'gpt-4o' });
  assert.match(error.message, /works only inside the VS Code extension/);
  assert.equal(error.provider, 'vscode');
});

test('other configuration mistakes are named', () => {
  assert.match(configError({ provider: 'gemini' as 'openai', model: 'x', apiKey: 'k' }).message, /unknown provider "gemini"/);
  assert.match(configError({ provider: 'openai', model: ' ', apiKey: 'k' }).message, /no model name/);
  assert.match(configError({ provider: 'openai', baseUrl: 'not a url', model: 'm', apiKey: 'k' }).message, /not a valid URL/);
  assert.match(configError({ provider: 'openai', baseUrl: 'ftp://host/v1', model: 'm', apiKey: 'k' }).message, /http:\/\/ or https:\/\//);
  assert.match(configError({ provider: 'openai', model: 'm', apiKey: 'k', timeoutMs: 0 }).message, /timeoutMs/);
  assert.match(configError({ provider: 'openai', model: 'm', apiKey: 'k', maxRetries: -1 }).message, /maxRetries/);
  assert.match(configError({ provider: 'openai', model: 'm', apiKey: 'k', contextWindowTokens: 1.5 }).message, /contextWindowTokens/);
  assert.match(configError({ provider: 'openai', model: 'm', apiKey: 'k', pricing: { inputPerMTok: -2, outputPerMTok: 0 } }).message, /non-negative/);
});

test('local endpoints are recognised and need no key', () => {
  for (const url of ['http://localhost:11434/v1', 'http://127.0.0.1:8000', 'http://[::1]:1234/v1', 'http://127.3.4.5', 'http://app.localhost:99']) {
    assert.equal(isLocalBaseUrl(url), true, url);
  }
  for (const url of ['https://api.openai.com/v1', 'http://192.168.1.5:11434/v1', 'https://openrouter.ai/api/v1', '', undefined, 'nonsense']) {
    assert.equal(isLocalBaseUrl(url), false, String(url));
  }
  const client = createModelClient({ provider: 'openai', baseUrl: 'http://localhost:11434', model: 'llama3.1' });
  assert.equal(client.endpoint, 'http://localhost:11434/v1');
});

test('endpoints normalise what each SDK expects and never show credentials or queries', () => {
  assert.equal(resolveEndpoint({ provider: 'openai', baseUrl: 'http://localhost:11434', model: 'm' }).sdkBaseUrl, 'http://localhost:11434/v1');
  assert.equal(resolveEndpoint({ provider: 'openai', baseUrl: 'https://openrouter.ai/api/v1/', model: 'm' }).sdkBaseUrl, 'https://openrouter.ai/api/v1');
  assert.equal(resolveEndpoint({ provider: 'anthropic', baseUrl: 'https://gw.example.com/v1', model: 'm' }).sdkBaseUrl, 'https://gw.example.com');
  assert.equal(resolveEndpoint({ provider: 'anthropic', model: 'm' }).display, 'https://api.anthropic.com');
  const secret = resolveEndpoint({ provider: 'openai', baseUrl: 'https://user:pw@gw.example.com/v1?key=abc', model: 'm' });
  assert.equal(secret.display, 'https://gw.example.com/v1');
  assert.equal(resolveEndpoint({ provider: 'openai', baseUrl: 'https://api.openai.com/v1', model: 'm' }).isOfficial, true);
  assert.equal(resolveEndpoint({ provider: 'openai', baseUrl: 'http://localhost:1/v1', model: 'm' }).isOfficial, false);
  const bad = configError({ provider: 'openai', baseUrl: 'https://user:pw@ bad host?key=abc', model: 'm', apiKey: 'k' });
  assert.ok(!bad.message.includes('pw@') && !bad.message.includes('key=abc'), bad.message);
});

test('redactSecrets removes the key and anything shaped like a provider key', () => {
  assert.equal(redactSecrets('bad key abc123xyz here', 'abc123xyz'), 'bad key [redacted] here');
  assert.equal(redactSecrets('Incorrect API key provided: sk-proj-********abcd.'), 'Incorrect API key provided: [redacted].');
  assert.equal(redactSecrets('key sk-ant-api03-AAAAAAAAAAAA end'), 'key [redacted] end');
  assert.equal(redactSecrets('nothing secret'), 'nothing secret');
});
