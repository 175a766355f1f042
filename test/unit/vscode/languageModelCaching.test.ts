// Caching next to VS Code models: prompt-caching hints (Anthropic's cache_control, OpenAI's
// prompt_cache_key) have no meaning for the Language Model API and must not change what is sent, and
// the sub-call cache must never answer one model's question with another model's answer.
import { strict as assert } from 'node:assert';
import { test } from 'node:test';
import { subCallKey } from '../../../src/core/models/subCallCache';
import { LanguageModelClient } from '../../../src/vscode/models/languageModelClient';
import { RequestGate } from '../../../src/vscode/models/requestGate';
import { FakeChatModel, FakeLm } from '../../fakes/fakeLanguageModels';

function client(id: string, vendor: string): { chat: FakeChatModel; client: LanguageModelClient } {
  const chat = new FakeChatModel(id, id, () => ({ fragments: ['OK'] }), vendor);
  const lm = new FakeLm([chat]);
  return { chat, client: new LanguageModelClient({ chat, createCancellation: () => lm.createCancellation(), gate: new RequestGate(2) }) };
}

const conversation = [
  { role: 'system' as const, content: 'you write python' },
  { role: 'user' as const, content: 'a long shared slice of the file, then the question' },
  { role: 'assistant' as const, content: '```repl\nprint(1)\n```' },
  { role: 'user' as const, content: 'output: 1' },
];

test('prompt-caching hints send exactly what a request without them sends (no cache marks)', async () => {
  const plain = client('gpt-4o', 'copilot');
  const hinted = client('gpt-4o', 'copilot');
  await plain.client.complete(conversation);
  await hinted.client.complete(conversation, { cache: { conversation: true, sharedPrefixChars: 20, key: 'run-1' } });
  assert.deepEqual(hinted.chat.requests[0]?.messages, plain.chat.requests[0]?.messages);
  assert.ok(hinted.chat.requests[0]?.messages.every((m) => typeof m.content === 'string' && !m.content.includes('cache_control')));
  assert.deepEqual(Object.keys(hinted.chat.requests[0]?.options ?? {}), Object.keys(plain.chat.requests[0]?.options ?? {}));
});

test('the sub-call cache key tells VS Code models apart from each other and from API models of the same name', () => {
  const messages = [{ role: 'user' as const, content: 'summarise this slice' }];
  const params = { maxTokens: 500 };
  const keys = [
    subCallKey({ client: client('gpt-4o', 'copilot').client, messages, params }),
    subCallKey({ client: client('gpt-4o-mini', 'copilot').client, messages, params }),
    subCallKey({ client: client('gpt-4o', 'other-extension').client, messages, params }),
    subCallKey({ client: { provider: 'openai', endpoint: 'https://api.openai.com/v1', model: 'gpt-4o' }, messages, params }),
  ];
  assert.equal(new Set(keys).size, keys.length);
  // The same VS Code model asked the same thing is one entry.
  assert.equal(subCallKey({ client: client('gpt-4o', 'copilot').client, messages, params }), keys[0]);
});
