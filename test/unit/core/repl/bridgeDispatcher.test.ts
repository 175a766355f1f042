import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BridgeDispatcher } from '../../../../src/core/repl/bridgeDispatcher';

type Reply = Parameters<Parameters<BridgeDispatcher['dispatch']>[2]>[0];

function collect(): { replies: Reply[]; send: (r: Reply) => void; next: () => Promise<Reply> } {
  const replies: Reply[] = [];
  let wake: (() => void) | undefined;
  return {
    replies,
    send: (r) => {
      replies.push(r);
      wake?.();
    },
    next: () => new Promise((resolve) => {
      if (replies.length) return resolve(replies.shift()!);
      wake = () => resolve(replies.shift()!);
    }),
  };
}

test('answers are checked for shape and errors become failed replies', async () => {
  const d = new BridgeDispatcher(async (call) => {
    if (call.prompts[0] === 'throw') throw new Error('server down');
    if (call.prompts[0] === 'short') return [];
    return call.prompts.map((p) => p.toUpperCase());
  });
  const c = collect();
  d.dispatch(1, { kind: 'llm_query', prompts: ['a', 'b'], batched: true }, c.send);
  assert.deepEqual(await c.next(), { callId: 1, ok: true, result: ['A', 'B'] });
  d.dispatch(2, { kind: 'llm_query', prompts: ['throw'], batched: false }, c.send);
  assert.deepEqual(await c.next(), { callId: 2, ok: false, message: 'internal: server down' });
  d.dispatch(3, { kind: 'llm_query', prompts: ['short'], batched: false }, c.send);
  assert.deepEqual(await c.next(), { callId: 3, ok: false, message: 'internal: the host returned a malformed answer for 1 prompt(s)' });
});

test('abortAll trips the signal of every call in flight and suppresses their replies', async () => {
  const seen: AbortSignal[] = [];
  const d = new BridgeDispatcher((_call, signal) => {
    seen.push(signal);
    return new Promise((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted'))));
  });
  const c = collect();
  d.dispatch(1, { kind: 'rlm_query', prompts: ['x'], contexts: [null], batched: false }, c.send);
  await new Promise((r) => setImmediate(r));
  assert.equal(d.pending, 1);
  d.abortAll('interrupted');
  assert.equal(seen[0]?.aborted, true);
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(c.replies, []);
  assert.equal(d.pending, 0);
});
