// A conversation remembers which targets the user confirmed sending, so follow-ups about the same
// target do not ask "Bind N files?" again; a new conversation (or its end) asks afresh.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Conversation } from '../../../src/vscode/run/conversation';

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
