// "Set API key..." on a failure opens the key box of the model that failed, named as the client saw it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { settingForSlot } from '../../../src/vscode/models/keySlotMatch';

const root = { provider: 'openai' as const, baseUrl: '', model: 'gpt-4o' };
const sub = { provider: 'openai' as const, baseUrl: 'HTTP://127.0.0.1:8080/v1/', model: 'qwen' };

test('the failure\'s server names the configured model it belongs to', () => {
  assert.equal(settingForSlot({ provider: 'openai', baseUrl: 'https://api.openai.com/v1' }, [root, sub]), root, 'no base URL is the official endpoint');
  assert.equal(settingForSlot({ provider: 'openai', baseUrl: 'http://127.0.0.1:8080/v1' }, [root, sub]), sub);
  assert.equal(settingForSlot({ provider: 'anthropic', baseUrl: 'https://api.openai.com/v1' }, [root, sub]), undefined, 'another provider');
  assert.equal(settingForSlot({ provider: 'openai', baseUrl: 'http://127.0.0.1:9999/v1' }, [root, sub]), undefined, 'a server no model uses: the person picks');
});

test('anything else passed to the command is not a slot', () => {
  for (const junk of [undefined, null, 'openai', 42, { provider: 'openai' }, { provider: 1, baseUrl: '' }]) assert.equal(settingForSlot(junk, [root, sub]), undefined);
  assert.equal(settingForSlot({ provider: 'vscode', baseUrl: '' }, [{ provider: 'vscode' as const, baseUrl: '', model: 'copilot' }]), undefined, 'VS Code models have no key');
});
