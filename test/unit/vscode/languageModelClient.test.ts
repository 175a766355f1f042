import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import { LanguageModelClient, resolveLanguageModel, toLmMessages } from '../../../src/vscode/models/languageModelClient';
import { RequestGate } from '../../../src/vscode/models/requestGate';
import { errorKindOf } from '../../../src/core/errorKind';
import { ContextTooLongError } from '../../../src/core/models/modelErrors';
import { FakeChatModel, FakeLanguageModelError, FakeLm } from '../../fakes/fakeLanguageModels';
import type { FakeBehaviour } from '../../fakes/fakeLanguageModels';

function setup(behave: () => FakeBehaviour, gateSize = 4, maxInputTokens = 100_000) {
  const chat = new FakeChatModel('gpt-test-1', 'gpt-test', behave, 'copilot', maxInputTokens);
  const lm = new FakeLm([chat]);
  const client = new LanguageModelClient({ chat, createCancellation: () => lm.createCancellation(), gate: new RequestGate(gateSize) });
  return { chat, lm, client };
}

const ask = [
  { role: 'system' as const, content: 'you write python' },
  { role: 'user' as const, content: 'what is in the file' },
];

describe('LanguageModelClient', () => {
  it('streams fragments in order, counts tokens with the model, and is included in the plan', async () => {
    const { client, chat } = setup(() => ({ fragments: ['The ', 'answer ', 'is 42'] }));
    const deltas: string[] = [];
    const result = await client.complete(ask, { onDelta: (d) => deltas.push(d) });
    assert.equal(result.text, 'The answer is 42');
    assert.deepEqual(deltas, ['The ', 'answer ', 'is 42']);
    // Word counts from the fake tokenizer: "you write python" + "what is in the file" = 3 + 5 (joined into one user message).
    assert.equal(result.usage.inputTokens, 8);
    assert.equal(result.usage.outputTokens, 4);
    assert.equal(result.usage.costUsd, 0);
    assert.equal(result.usage.includedInPlan, true);
    assert.equal(result.usage.estimated, undefined);
    assert.equal(client.provider, 'vscode');
    assert.equal(client.model, 'gpt-test-1');
    assert.equal(client.endpoint, 'vscode.lm (copilot)');
    assert.equal(client.estimateCostUsd(), 0);
    assert.ok(chat.requests[0]?.options.justification, 'the consent prompt says why');
  });

  it('sends the system prompt as a user message and joins same-role neighbours', () => {
    assert.deepEqual(
      toLmMessages([
        { role: 'system', content: 'S' },
        { role: 'user', content: 'U1' },
        { role: 'assistant', content: 'A' },
        { role: 'user', content: 'U2' },
      ]),
      [
        { role: 'user', content: 'S\n\nU1' },
        { role: 'assistant', content: 'A' },
        { role: 'user', content: 'U2' },
      ],
    );
  });

  it('falls back to the estimate, flagged, when countTokens fails', async () => {
    const { client, chat } = setup(() => ({ fragments: ['abcdefgh'] }));
    chat.failCount = true;
    const result = await client.complete(ask);
    assert.equal(result.usage.estimated, true);
    assert.equal(result.usage.outputTokens, 2);
  });

  it('cancels the request through the token when the run aborts, and fails as cancelled', async () => {
    const { client, lm } = setup(() => ({ fragments: Array.from({ length: 200 }, () => 'x '), delayMs: 5 }));
    const controller = new AbortController();
    const deltas: string[] = [];
    const pending = client.complete(ask, { signal: controller.signal, onDelta: (d) => deltas.push(d) });
    // Stopped once the answer has begun: by what arrived, not by a clock a loaded machine could outrun.
    while (deltas.length === 0) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await assert.rejects(pending, (e: unknown) => errorKindOf(e) === 'cancelled');
    assert.equal(lm.cancellations[0]?.token.isCancellationRequested, true);
    assert.ok(deltas.length > 0 && deltas.length < 200);
  });

  it('does not send when already aborted', async () => {
    const { client, chat } = setup(() => ({ fragments: ['x'] }));
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(client.complete(ask, { signal: controller.signal }), (e: unknown) => errorKindOf(e) === 'cancelled');
    assert.equal(chat.requests.length, 0);
  });

  it('maps LanguageModelError codes and provider messages to our kinds', async () => {
    const cases: Array<[Error, string, RegExp]> = [
      [new FakeLanguageModelError('consent not given', 'NoPermissions'), 'auth', /consent prompt.*Manage Language Model Access/],
      [new FakeLanguageModelError('quota exceeded', 'Blocked'), 'rate_limit', /quota or rate limit.*rlm\.vscodeModelConcurrency/],
      [new FakeLanguageModelError('gone', 'NotFound'), 'config', /no longer offers this model/],
      [new FakeLanguageModelError('failed', 'Unknown', new Error('You have exceeded your premium request quota')), 'rate_limit', /premium request quota/],
      [new FakeLanguageModelError('failed', 'Unknown', new Error('Request failed: 429 Too Many Requests')), 'rate_limit', /429/],
      [new FakeLanguageModelError('failed', 'Unknown', new Error('prompt token count exceeds the context window; message too long')), 'context_too_long', /too long/],
      [new FakeLanguageModelError('failed', 'Unknown', new Error('upstream 500')), 'server', /upstream 500/],
    ];
    for (const [error, kind, message] of cases) {
      const { client } = setup(() => ({ rejectWith: error }));
      await assert.rejects(client.complete(ask), (e: unknown) => {
        assert.equal(errorKindOf(e), kind, `${error.message} -> ${kind}`);
        assert.match((e as Error).message, message);
        assert.match((e as Error).message, /^VS Code language model "gpt-test-1" at vscode\.lm \(copilot\)/);
        return true;
      });
    }
  });

  it('maps an error in the middle of the stream', async () => {
    const { client } = setup(() => ({ fragments: ['a', 'b', 'c'], failAfter: { fragments: 1, error: new FakeLanguageModelError('blocked midway', 'Blocked') } }));
    await assert.rejects(client.complete(ask), (e: unknown) => errorKindOf(e) === 'rate_limit');
  });

  it('refuses a prompt larger than the model window before sending', async () => {
    const { client, chat } = setup(() => ({ fragments: ['x'] }), 4, 5);
    await assert.rejects(client.complete(ask), (e: unknown) => e instanceof ContextTooLongError && e.promptTokens === 8 && e.limitTokens === 5);
    assert.equal(chat.requests.length, 0);
  });

  it('cuts the answer at a stop sequence and never streams the stop text', async () => {
    const { client } = setup(() => ({ fragments: ['print(1)\n``', '`\nmore text'] }));
    const deltas: string[] = [];
    const result = await client.complete(ask, { stop: ['```'], onDelta: (d) => deltas.push(d) });
    assert.equal(result.text, 'print(1)\n');
    assert.equal(deltas.join(''), 'print(1)\n');
  });

  it('keeps at most the gate size of requests in flight (batches wait their turn)', async () => {
    const { client, chat } = setup(() => ({ fragments: ['a', 'b', 'c'], delayMs: 3 }), 2);
    const results = await Promise.all(Array.from({ length: 9 }, () => client.complete(ask)));
    assert.equal(results.length, 9);
    assert.equal(chat.maxInFlight, 2);
  });
});

describe('RequestGate', () => {
  it('releases a waiting slot when its signal aborts, without granting it', async () => {
    const gate = new RequestGate(1);
    const release = await gate.acquire();
    const controller = new AbortController();
    const waiting = gate.acquire(controller.signal);
    controller.abort(new Error('stop'));
    await assert.rejects(waiting, /stop/);
    release();
    assert.equal(gate.inFlight, 0);
    const again = await gate.acquire();
    assert.equal(gate.inFlight, 1);
    again();
    again();
    assert.equal(gate.inFlight, 0, 'a double release frees one slot only');
  });

  it('refuses a size below 1', () => {
    assert.throws(() => new RequestGate(0), RangeError);
  });
});

describe('resolveLanguageModel', () => {
  const models = [
    new FakeChatModel('copilot-gpt-4o', 'gpt-4o', () => ({ fragments: [] }), 'copilot'),
    new FakeChatModel('claude-sonnet', 'claude-3.5-sonnet', () => ({ fragments: [] }), 'copilot'),
    new FakeChatModel('local-llama', 'llama', () => ({ fragments: [] }), 'ollama-ext', 8000, 'Llama Local'),
  ];
  const lm = new FakeLm(models);

  it('finds a model by id, by family, by vendor/family and by name in any case', async () => {
    assert.equal((await resolveLanguageModel(lm, 'claude-sonnet')).id, 'claude-sonnet');
    assert.equal((await resolveLanguageModel(lm, 'gpt-4o')).id, 'copilot-gpt-4o');
    assert.equal((await resolveLanguageModel(lm, 'ollama-ext/llama')).id, 'local-llama');
    assert.equal((await resolveLanguageModel(lm, 'llama local')).id, 'local-llama');
  });

  it('lists what is available when nothing matches, and says how to get models when there are none', async () => {
    await assert.rejects(resolveLanguageModel(lm, 'gpt-5'), (e: unknown) => {
      assert.equal(errorKindOf(e), 'config');
      assert.match((e as Error).message, /no model with id or family "gpt-5".*copilot-gpt-4o.*local-llama/);
      return true;
    });
    await assert.rejects(resolveLanguageModel(new FakeLm([]), 'gpt-4o'), /offers no language model yet.*GitHub Copilot Chat/);
    await assert.rejects(resolveLanguageModel(lm, '  '), /no model id or family/);
  });
});
