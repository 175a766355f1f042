// modelConfigs: the one place `rlm ask` and `rlm mcp` turn their model flags into the root and sub
// model configs, so both commands agree on when the sub model is the root's own client and which keys
// are kept out of recorded runs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAskArgs } from '../../../src/cli/commands/askArgs';
import { parseMcpArgs } from '../../../src/cli/mcp/mcpArgs';
import { modelConfigs, UsageError } from '../../../src/cli/support/modelArgs';

const env = { OPENAI_API_KEY: 'sk-root', SUB_KEY: 'sk-sub' };

test('rlm ask and rlm mcp build the same configs from the same model flags', () => {
  const flags = ['--model', 'gpt-x', '--sub-model', 'gpt-y', '--sub-api-key-env', 'SUB_KEY', '--context-window', '64000'];
  const ask = modelConfigs(parseAskArgs(['f', '-q', 'q', ...flags]), env);
  const mcpModels = parseMcpArgs(flags).models;
  assert.ok(mcpModels);
  assert.deepEqual(modelConfigs(mcpModels, env), ask);
  assert.equal(ask.root.model, 'gpt-x');
  assert.equal(ask.sub.model, 'gpt-y');
  assert.equal(ask.sub.apiKey, 'sk-sub');
  assert.deepEqual(ask.secrets, ['sk-root', 'sk-sub']);
});

test('the sub model is the root\'s own config only when every flag of the two is the same', () => {
  const same = modelConfigs(parseAskArgs(['f', '-q', 'q', '--model', 'm']), env);
  assert.equal(same.sub, same.root, 'one object: one client serves both');
  assert.deepEqual(same.secrets, ['sk-root'], 'a key is listed once');
  // Only the context window differs: a client built for the root would misstate the sub model's window.
  const windowed = modelConfigs(parseAskArgs(['f', '-q', 'q', '--model', 'm', '--sub-context-window', '8000']), env);
  assert.notEqual(windowed.sub, windowed.root);
  assert.equal(windowed.sub.contextWindowTokens, 8000);
});

test('a missing key names the flag that would point at another variable', () => {
  assert.throws(() => modelConfigs(parseAskArgs(['f', '-q', 'q', '--model', 'm']), {}), (e: unknown) => e instanceof UsageError && /OPENAI_API_KEY.*--api-key-env/.test(e.message));
  assert.throws(
    () => modelConfigs(parseAskArgs(['f', '-q', 'q', '--model', 'm', '--sub-model', 's', '--sub-api-key-env', 'NOPE']), env),
    (e: unknown) => e instanceof UsageError && /NOPE.*--sub-api-key-env/.test(e.message),
  );
});
