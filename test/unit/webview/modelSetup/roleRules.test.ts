import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RoleDraft, SetupEndpointOption } from '../../../../src/shared/modelSetupProtocol';
import { copiedListState, modelAfterEndpointChange, modelPlaceholder, subOnTick, testOutcomeStale } from '../../../../webview/modelSetup/roleRules';

const root: RoleDraft = { endpointId: 'custom-openai', baseUrl: 'http://127.0.0.1:9000/v1', model: 'big-coder', apiKey: 'typed-key' };
const savedSub: RoleDraft = { endpointId: 'ollama', baseUrl: 'http://localhost:11434/v1', model: 'qwen2.5-coder:7b', apiKey: '' };

function endpoint(over: Partial<SetupEndpointOption>): SetupEndpointOption {
  return { id: 'x', label: 'X', description: '', provider: 'openai', baseUrl: '', editableUrl: false, needsKey: false, takesKey: true, modelSource: 'the server', suggestedModel: '', ...over };
}

test('ticking a separate sub model starts it as a copy of the root as the form shows it', () => {
  const sub = subOnTick(root, savedSub, false);
  assert.deepEqual(sub, root);
  assert.notEqual(sub, root, 'a copy: editing the sub model must not edit the root');
});

test('a sub model the user chose (saved, or edited on the page) is kept when ticked again', () => {
  assert.deepEqual(subOnTick(root, savedSub, true), savedSub);
});

test('the copy shows the root\'s model list when it was read, and no second copy of the root\'s error', () => {
  const listed = { models: ['big-coder', 'small-helper'], text: '2 models listed by the server.', bad: false };
  assert.deepEqual(copiedListState(listed), listed);
  const failed = copiedListState({ models: [], text: 'OpenAI needs an API key. Type the model name instead.', bad: true });
  assert.equal(failed.bad, false);
  assert.deepEqual(failed.models, []);
  assert.match(failed.text, /Same as the root model/);
  // Still asking: nothing listed yet, nothing claimed.
  assert.equal(copiedListState({ models: [], text: 'Asking the server for its models…', bad: false }).bad, false);
});

test('another endpoint gets its own suggested model or none, never the previous provider\'s name', () => {
  assert.equal(modelAfterEndpointChange(endpoint({ id: 'anthropic', suggestedModel: 'claude-sonnet-4-5' })), 'claude-sonnet-4-5');
  assert.equal(modelAfterEndpointChange(endpoint({ id: 'lmstudio', suggestedModel: '' })), '');
});

test('the model field says what it offers', () => {
  assert.equal(modelPlaceholder(endpoint({}), 3), 'Pick one of the 3 listed models or type a name');
  assert.equal(modelPlaceholder(endpoint({}), 1), 'Pick the listed model or type a name');
  assert.equal(modelPlaceholder(endpoint({ takesKey: false }), 0), 'Pick one of the models VS Code offers');
  assert.equal(modelPlaceholder(endpoint({}), 0), 'Type the model name');
});

test('a test outcome goes stale when the endpoint, URL, key or model changes, not on surrounding spaces', () => {
  assert.equal(testOutcomeStale(root, { ...root }), false);
  assert.equal(testOutcomeStale(root, { ...root, baseUrl: ` ${root.baseUrl} ` }), false);
  for (const change of [{ endpointId: 'custom-anthropic' }, { baseUrl: 'http://127.0.0.1:9001/v1' }, { apiKey: 'other' }, { model: 'small-helper' }]) {
    assert.equal(testOutcomeStale(root, { ...root, ...change }), true, JSON.stringify(change));
  }
});
