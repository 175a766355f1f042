// A conversation remembers which targets the user confirmed sending, so follow-ups about the same
// target do not ask "Bind N files?" again; a new conversation (or its end) asks afresh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation } from '../../../src/vscode/run/conversation';
import { createBridgeRouter } from '../../../src/core/repl/replFactory';
import type { ReplFactory } from '../../../src/core/repl/replFactory';
import type { ReplSession } from '../../../src/core/repl/replTypes';

function conversation(): Conversation {
  const unused = async (): Promise<never> => {
    throw new Error('no REPL in this test');
  };
  return new Conversation({ repl: unused, createBridgeRouter: unused });
}

test('a confirmed target stays confirmed for the conversation, per target, until it ends', async () => {
  const c = conversation();
  assert.equal(c.isConfirmed('workspace'), false);
  c.markConfirmed('workspace');
  assert.equal(c.isConfirmed('workspace'), true);
  assert.equal(c.isConfirmed('folder:file:///w/src'), false, 'another target is asked about on its own');
  await c.end();
  assert.equal(c.isConfirmed('workspace'), false, 'a new conversation asks again');
  assert.equal(conversation().isConfirmed('workspace'), false);
});

/** A pool whose REPL starts when the test says so, as a cold start takes seconds. */
function slowPool() {
  const starts: Array<{ resolve(s: ReplSession): void; reject(e: Error): void }> = [];
  const released: ReplSession[] = [];
  const factory = {
    acquire: () => new Promise<ReplSession>((resolve, reject) => starts.push({ resolve, reject })),
    release: async (s: ReplSession) => void released.push(s),
  } as unknown as ReplFactory;
  const conversation = new Conversation({ repl: async () => factory, createBridgeRouter: async () => createBridgeRouter() });
  return { conversation, starts, released };
}
const session = (name: string): ReplSession => ({ name }) as unknown as ReplSession;

test("a conversation's first question does not wait for its REPL to start: the run gets the start and awaits it itself", async () => {
  const { conversation, starts, released } = slowPool();
  const options = await conversation.prepare('k');
  assert.equal(starts.length, 1, 'the REPL is being started');
  assert.ok(options.session instanceof Promise, 'handed over while it starts');
  assert.equal(conversation.warmSession, undefined, "a user's cell has no session to run in yet");
  const started = session('repl-1');
  starts[0]!.resolve(started);
  assert.equal(await options.session, started);
  assert.equal((conversation.warmSession as { session?: ReplSession } | undefined)?.session, started);
  await conversation.finish('q', 'completed', 'a');
  const again = await conversation.prepare('k');
  assert.equal(await again.session, started, 'a follow-up reuses it');
  assert.equal(starts.length, 1);
  await conversation.end();
  assert.deepEqual(released, [started]);
});

test('a REPL that fails to start fails the run that waited for it, and the next question starts another', async () => {
  const { conversation, starts } = slowPool();
  const first = await conversation.prepare('k');
  starts[0]!.reject(new Error('the REPL did not become ready'));
  await assert.rejects(Promise.resolve(first.session), /did not become ready/);
  await conversation.finish('q', 'error', undefined);
  const second = await conversation.prepare('k');
  assert.equal(starts.length, 2, 'a new start, not the failed one again');
  starts[1]!.resolve(session('repl-2'));
  assert.equal(((await second.session) as unknown as { name: string }).name, 'repl-2');
});

test('ending a conversation while its REPL starts ends that REPL once it has started', async () => {
  const { conversation, starts, released } = slowPool();
  await conversation.prepare('k');
  const ended = conversation.end();
  const late = session('late');
  starts[0]!.resolve(late);
  await ended;
  assert.deepEqual(released, [late]);
});
