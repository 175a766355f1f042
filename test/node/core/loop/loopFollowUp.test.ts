// Follow-up questions: a second run reuses the bound session (its variables survive) through the
// session's bridge router, and the root is given the earlier question and answer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fence, isRootRequest, lastUser, makeRepl, runCollect, startModel, turnOf } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { createBridgeRouter } from '../../../../src/core/repl/replFactory';
import { until } from '../../../support/until';

describe('RLM loop: follow-up questions on the same session', () => {
  let model: Harness;
  let repl: TestRepl;
  const seen: FakeModelRequest[] = [];
  before(async () => {
    repl = makeRepl();
    model = await startModel('openai', (r) => {
      if (!isRootRequest(r)) return 'sub reply';
      seen.push(r);
      const first = r.messages.find((m) => m.role === 'user')?.content ?? '';
      if (first.includes('Question: How long is it?')) {
        return turnOf(r) === 0 ? fence('size = len(context)\nprint(size)') : fence('FINAL(str(size))');
      }
      return turnOf(r) === 0 ? fence('print(size * 2, llm_query("double it"))') : fence('FINAL(str(size * 2))');
    });
  });
  after(async () => {
    await repl.dispose();
    await model.close();
  });

  it('keeps variables and routes sub-calls of the reused session to the new run', async () => {
    const session = await repl.acquire();
    const sessionBridge = repl.routerOf(session);
    assert.ok(sessionBridge, 'sessions made by the routed factory have a router');
    try {
      const context = { kind: 'text' as const, text: 'twelve chars' };
      const first = await runCollect({ question: 'How long is it?', context, root: model.client, repl, session, sessionBridge });
      assert.equal(first.result.answer, '12');
      const second = await runCollect({
        question: 'And twice that?',
        context,
        root: model.client,
        repl,
        session,
        sessionBridge,
        priorTurns: [{ question: 'How long is it?', answer: first.result.answer ?? '' }],
      });
      assert.equal(second.result.status, 'completed');
      assert.equal(second.result.answer, '24');
      const followUp = seen.find((r) => r.messages[0]?.content.includes('And twice that?'));
      assert.match(followUp!.messages[0]!.content, /Q: How long is it\?\nA: 12/);
      assert.match(lastUser(seen.at(-1)!), /24 sub reply/);
      assert.equal(second.result.totals.subCalls, 1);
    } finally {
      await repl.release(session);
    }
  });

  it("a conversation's session still starting: the first request goes out before it has started, then the run binds into it", async () => {
    // As a chat's first question: the REPL start (seconds) is handed over, not waited for.
    const router = createBridgeRouter();
    let allowStart!: () => void;
    const allowed = new Promise<void>((resolve) => (allowStart = resolve));
    const starting = allowed.then(() => repl.acquire({ bridge: router.handler }));
    let started = false;
    let beforeStart = 0;
    model.server.setRespond((r) => {
      if (!isRootRequest(r)) return 'sub reply';
      if (!started) beforeStart++;
      return turnOf(r) === 0 ? fence('n = len(context)\nprint(n, llm_query("q"))') : fence('FINAL(str(n))');
    });
    const running = runCollect({ question: 'How long is this one?', context: { kind: 'text', text: 'twelve chars' }, root: model.client, repl, session: starting, sessionBridge: router });
    await until(() => beforeStart === 1, 'the first root request, sent while the REPL has not started');
    started = true;
    allowStart();
    const { result } = await running;
    assert.equal(result.status, 'completed');
    assert.equal(result.answer, '12');
    assert.equal(result.totals.subCalls, 1, "the session's bridge reaches the run");
    assert.equal(beforeStart, 1);
    await repl.release(await starting);
  });

  it('gives each pooled run a fresh namespace: nothing leaks from the previous run', async () => {
    model.server.setRespond((r) => {
      const first = r.messages.find((m) => m.role === 'user')?.content ?? '';
      if (first.includes('Question: set')) return turnOf(r) === 0 ? fence('leftover = 1\nprint(leftover)') : fence('FINAL("set")');
      return turnOf(r) === 0 ? fence('print("leftover" in globals())') : fence('FINAL("checked")');
    });
    const context = { kind: 'text' as const, text: 'same context' };
    await runCollect({ question: 'set', context, root: model.client, repl });
    const { events } = await runCollect({ question: 'check', context, root: model.client, repl });
    const cell = events.find((e) => e.type === 'cell.finished');
    assert.equal(cell?.type === 'cell.finished' && cell.stdout.trim(), 'False');
  });

  it('refuses a reused session without its bridge router, clearly', async () => {
    const session = await repl.acquire();
    try {
      const { result } = await runCollect({ question: 'q', context: { kind: 'text', text: 'x' }, root: model.client, repl, session });
      assert.equal(result.status, 'error');
      assert.match(result.error?.message ?? '', /sessionBridge/);
    } finally {
      await repl.release(session);
    }
  });
});
