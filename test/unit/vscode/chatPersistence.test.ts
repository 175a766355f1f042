// The chat comes back after a window reload: entries, outcomes and the tab; a run that was going is
// shown as stopped by the reload, and answered questions become the follow-up's prior turns.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromSaved, MAX_SAVED_ENTRIES, MAX_SAVED_TEXT, priorTurnsOf, toSaved } from '../../../src/vscode/sidebar/chatPersistence';
import { entry } from './sidebarFakes';

test('a saved chat comes back; a running entry comes back stopped, saying why', () => {
  const saved = toSaved({ conversationId: 'c1', tab: 'history', entries: [entry('e1', 'completed', { answer: 'forty-two', streamingText: 'junk' }), entry('e2', 'running')] });
  assert.equal(saved.entries[0]?.streamingText, '', 'streamed text is not kept');
  const back = fromSaved(JSON.parse(JSON.stringify(saved)), 5);
  assert.equal(back?.tab, 'history');
  assert.equal(back?.conversationId, 'c1');
  assert.equal(back?.entries[1]?.status, 'cancelled');
  assert.equal(back?.entries[1]?.outcome?.headline, 'Stopped: the window was reloaded while it ran');
  assert.deepEqual(priorTurnsOf(back?.entries ?? []), [{ question: 'question e1', answer: 'forty-two' }]);
});

test('what is saved stays small, and junk is ignored', () => {
  const many = Array.from({ length: MAX_SAVED_ENTRIES + 5 }, (_, i) => entry(`e${i}`, 'completed', { answer: 'x'.repeat(MAX_SAVED_TEXT + 10) }));
  const saved = toSaved({ conversationId: 'c', tab: 'chat', entries: many });
  assert.equal(saved.entries.length, MAX_SAVED_ENTRIES);
  assert.equal(saved.entries[0]?.id, 'e5', 'the newest are kept');
  assert.ok((saved.entries[0]?.answer?.length ?? 0) < MAX_SAVED_TEXT + 100);
  assert.equal(fromSaved(undefined, 0), undefined);
  assert.equal(fromSaved({ entries: 'x' }, 0), undefined);
  assert.deepEqual(fromSaved({ conversationId: 'c', entries: [null, { id: 1 }], tab: 'weird' }, 0), { conversationId: 'c', entries: [], tab: 'chat' });
});
