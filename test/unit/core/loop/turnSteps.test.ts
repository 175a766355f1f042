// The root call's bookkeeping: the request size it records, and the signal it hands the model client.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { historyBytes } from '../../../../src/core/loop/requestBytes';
import type { RunTree } from '../../../../src/core/loop/runTree';
import { startRootCall } from '../../../../src/core/loop/turnSteps';
import { UsageMeter } from '../../../../src/core/loop/usageMeter';
import type { ChatMessage, CompleteOptions, Completion, ModelClient } from '../../../../src/core/models/modelTypes';

const exact = (history: ChatMessage[]): number => Buffer.byteLength(JSON.stringify(history));

/** A model client that answers when told to, and keeps the options each request was given. */
function heldClient(): { client: ModelClient; calls: CompleteOptions[]; answer: () => void } {
  const calls: CompleteOptions[] = [];
  const waiting: Array<() => void> = [];
  const client: ModelClient = {
    provider: 'openai',
    model: 'held',
    endpoint: 'test',
    complete(_messages, options = {}) {
      calls.push(options);
      return new Promise<Completion>((resolve, reject) => {
        options.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true });
        waiting.push(() => resolve({ text: 'ok', usage: { inputTokens: 1, outputTokens: 1, costUsd: 0 }, finishReason: 'stop', model: 'held', latencyMs: 0 }));
      });
    },
  };
  return { client, calls, answer: () => waiting.shift()?.() };
}

function treeWith(root: ModelClient): RunTree {
  return { root } as unknown as RunTree;
}

describe('root call bookkeeping', () => {
  it('records the request size as the JSON of the history, through growth, edits in place and non-ASCII text', () => {
    const history: ChatMessage[] = [];
    assert.equal(historyBytes(history), exact(history));
    history.push({ role: 'system', content: 'You are "careful".\nTabs\there, quotes and \\ backslashes.' });
    history.push({ role: 'user', content: 'Ünïcödé — 漢字 and an emoji 🙂, and a control char \u0001' });
    assert.equal(historyBytes(history), exact(history));
    for (let turn = 0; turn < 20; turn++) {
      history.push({ role: 'assistant', content: '```repl\nprint(' + turn + ')\n```' }, { role: 'user', content: `${turn}\n` });
      assert.equal(historyBytes(history), exact(history));
    }
    // The last turn's note is added to the observation before it, in place.
    history.at(-1)!.content += '\n\nThis is your last turn: answer now. ✓';
    assert.equal(historyBytes(history), exact(history));
    history[0]!.role = 'user';
    assert.equal(historyBytes(history), exact(history));
  });

  it('links each request to the run signal only while it is under way', async () => {
    const run = new AbortController();
    const { client, answer } = heldClient();
    const ref = { runId: 'run-1', signal: run.signal, meter: new UsageMeter(0) };
    for (let turn = 0; turn < 5; turn++) {
      const call = startRootCall(treeWith(client), ref, [{ role: 'user', content: 'q' }]);
      assert.equal(getEventListeners(run.signal, 'abort').length, 1, 'the request in flight follows the run');
      answer();
      await call.completion;
    }
    // Settled requests leave nothing on the run's signal, however many turns the run takes.
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(getEventListeners(run.signal, 'abort').length, 0);
  });

  it('stops a request when the run is stopped, with the run\'s reason, and can stop one request alone', async () => {
    const run = new AbortController();
    const { client, calls } = heldClient();
    const ref = { runId: 'run-1', signal: run.signal, meter: new UsageMeter(0) };
    const alone = startRootCall(treeWith(client), ref, [{ role: 'user', content: 'q' }]);
    alone.abort();
    await assert.rejects(alone.completion);
    assert.equal(calls[0]!.signal!.aborted, true);
    assert.equal(run.signal.aborted, false, 'aborting one request leaves the run going');
    const second = startRootCall(treeWith(client), ref, [{ role: 'user', content: 'q' }]);
    const reason = new Error('stopped by the user');
    run.abort(reason);
    await assert.rejects(second.completion, (error: unknown) => error === reason);
    assert.equal(calls[1]!.signal!.reason, reason);
  });
});
