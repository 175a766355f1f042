import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProtocolMessageError, isChatTarget, parseSidebarToHost } from '../../../src/shared/sidebarProtocol';

test('valid messages of every area parse and keep their payload', () => {
  assert.deepEqual(parseSidebarToHost({ type: 'lifecycle.ready' }), { type: 'lifecycle.ready' });
  const ask = { type: 'chat.ask', question: 'why?', target: { kind: 'workspace', label: 'Workspace' } };
  assert.deepEqual(parseSidebarToHost(ask), ask);
  assert.deepEqual(parseSidebarToHost({ type: 'history.delete', path: '/x/a.rlm.jsonl' }), { type: 'history.delete', path: '/x/a.rlm.jsonl' });
});

test('unknown types and malformed payloads are refused with what was wrong', () => {
  assert.throws(() => parseSidebarToHost(null), ProtocolMessageError);
  assert.throws(() => parseSidebarToHost({ type: 'chat.explode' }), /unknown type "chat.explode"/);
  assert.throws(() => parseSidebarToHost({ type: 'toString' }), /unknown type/);
  assert.throws(() => parseSidebarToHost({ type: 'chat.ask', question: '   ', target: { kind: 'workspace', label: 'W' } }), /field "question"/);
  assert.throws(() => parseSidebarToHost({ type: 'chat.ask', question: 'q', target: { kind: 'file', label: 'a.ts' } }), /field "target"/);
  assert.throws(() => parseSidebarToHost({ type: 'lifecycle.switchTab', tab: 'settings' }), /field "tab"/);
  assert.throws(() => parseSidebarToHost({ type: 'history.open', path: 3 }), /field "path"/);
});

test('isChatTarget requires a uri for files and folders', () => {
  assert.equal(isChatTarget({ kind: 'workspace', label: 'Workspace' }), true);
  assert.equal(isChatTarget({ kind: 'folder', label: 'src/', uri: 'file:///w/src' }), true);
  assert.equal(isChatTarget({ kind: 'folder', label: 'src/' }), false);
  assert.equal(isChatTarget({ kind: 'disk', label: 'x', uri: 'y' }), false);
});
