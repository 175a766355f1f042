import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyHostMessage, relativeTime, statusText } from '../../../../webview/sidebar/sidebarModel';
import type { SidebarState } from '../../../../src/shared/sidebarState';
import { entry } from '../../vscode/sidebarFakes';

const base: SidebarState = {
  conversationId: 'c1',
  entries: [entry('e1', 'running')],
  targets: [{ kind: 'workspace', label: 'Workspace' }],
  selectedTarget: { kind: 'workspace', label: 'Workspace' },
  busy: true,
  trusted: true,
  history: { query: '', items: [], loading: false },
  tab: 'chat',
};

test('before the full state arrives, partial updates are ignored', () => {
  assert.deepEqual(applyHostMessage(undefined, { type: 'chat.entry', entry: entry('e1', 'running') }), { state: undefined, change: undefined });
});

test('the full state replaces everything; an entry update re-renders only that entry', () => {
  const { state, change } = applyHostMessage(undefined, { type: 'lifecycle.state', state: base });
  assert.equal(change, 'all');
  const next = applyHostMessage(state, { type: 'chat.entry', entry: entry('e1', 'running', { streamingText: 'abc' }) });
  assert.deepEqual(next.change, { entryId: 'e1' });
  assert.equal(next.state?.entries[0]?.streamingText, 'abc');
});

test('an entry that finishes flips busy and re-renders all (the composer is enabled again)', () => {
  const next = applyHostMessage(base, { type: 'chat.entry', entry: entry('e1', 'completed', { answer: 'x' }) });
  assert.equal(next.change, 'all');
  assert.equal(next.state?.busy, false);
  const added = applyHostMessage(next.state, { type: 'chat.entry', entry: entry('e2', 'running') });
  assert.equal(added.state?.entries.length, 2);
  assert.equal(added.change, 'all');
});

test('history updates touch only the history', () => {
  const next = applyHostMessage(base, { type: 'history.state', history: { query: 'x', items: [], loading: true } });
  assert.equal(next.change, 'history');
  assert.equal(next.state?.history.loading, true);
  assert.equal(next.state?.entries, base.entries);
});

test('times and statuses read as words', () => {
  assert.equal(relativeTime(1000, 1000 + 30_000), 'just now');
  assert.equal(relativeTime(0, 5 * 60_000), '5 min ago');
  assert.equal(statusText({ status: 'forced' }), 'Best answer at a limit');
  assert.equal(statusText({ status: 'weird' }), 'weird');
  assert.equal(statusText({ status: 'cancelled', outcome: { headline: 'Stopped by you after 3 turns' } }), 'Stopped by you after 3 turns');
  assert.equal(statusText({ status: 'running', outcome: { headline: 'old' } }), 'Running', 'a running entry is running, whatever it said before');
});

test('history groups follow-ups under the question they followed, newest conversation first', async () => {
  const { groupHistory } = await import('../../../../webview/sidebar/historyGroups');
  const item = (path: string, startedAt: number, conversationId?: string) => ({ path, runId: path, question: path, startedAt, status: 'completed', ...(conversationId ? { conversationId } : {}) });
  const groups = groupHistory([item('follow-up', 30, 'c1'), item('alone', 20), item('first', 10, 'c1'), item('old', 5)]);
  assert.deepEqual(groups.map((g) => [g.first.path, g.followUps.map((f) => f.path)]), [['first', ['follow-up']], ['alone', []], ['old', []]]);
});
