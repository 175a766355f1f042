import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SidebarRouter } from '../../../src/vscode/sidebar/sidebarRouter';
import { SidebarStore } from '../../../src/vscode/sidebar/sidebarStore';
import { WebviewMessenger } from '../../../src/vscode/sidebar/webviewMessenger';
import { RecordingActions, RecordingWebview, entry, historyItem } from './sidebarFakes';

function setup() {
  const messenger = new WebviewMessenger();
  let n = 0;
  const store = new SidebarStore(messenger, () => `c${++n}`);
  const actions = new RecordingActions();
  const router = new SidebarRouter(store, messenger, actions);
  const webview = new RecordingWebview();
  messenger.attach(webview.post);
  return { messenger, store, actions, router, webview };
}

test('nothing reaches the webview before its handshake; then the full state comes first', async () => {
  const { store, router, webview, messenger } = setup();
  store.addEntry(entry('e1', 'running'));
  store.updateEntry('e1', { streamingText: 'partial' });
  assert.equal(webview.sent.length, 0);
  assert.equal(messenger.pending.length, 2);
  await router.receive({ type: 'lifecycle.ready' });
  const first = webview.sent[0];
  assert.equal(first?.type, 'lifecycle.state');
  assert.equal(first?.type === 'lifecycle.state' && first.state.entries[0]?.streamingText, 'partial');
  assert.equal(first?.type === 'lifecycle.state' && first.state.busy, true);
  assert.equal(messenger.pending.length, 0);
});

test('a re-created view asks again and gets the whole state again', async () => {
  const { store, router, webview, messenger } = setup();
  await router.receive({ type: 'lifecycle.ready' });
  store.addEntry(entry('e1', 'completed', { answer: '42' }));
  messenger.attach(webview.post); // the view was hidden and its page discarded
  store.updateEntry('e1', { answer: '43' });
  const before = webview.sent.length;
  await router.receive({ type: 'lifecycle.ready' });
  const full = webview.sent[before];
  assert.equal(full?.type === 'lifecycle.state' && full.state.entries[0]?.answer, '43');
});

test('entry updates send one entry; a change of busy sends the whole state', async () => {
  const { store, router, webview } = setup();
  await router.receive({ type: 'lifecycle.ready' });
  store.addEntry(entry('e1', 'running'));
  webview.sent.length = 0;
  store.updateEntry('e1', { streamingText: 'x' });
  assert.deepEqual(webview.types(), ['chat.entry']);
  store.updateEntry('e1', { status: 'completed', answer: 'done' });
  assert.deepEqual(webview.types(), ['chat.entry', 'lifecycle.state']);
});

test('chat messages reach the actions; invalid ones are reported, not thrown', async () => {
  const { store, router, actions } = setup();
  store.addEntry(entry('e1', 'completed', { answer: 'the answer' }));
  await router.receive({ type: 'chat.ask', question: '  where?  ', target: { kind: 'workspace', label: 'Workspace' } });
  await router.receive({ type: 'chat.copyAnswer', entryId: 'e1' });
  await router.receive({ type: 'chat.viewTrajectory', entryId: 'e1' });
  await router.receive({ type: 'chat.stop', entryId: 'missing' });
  await router.receive({ type: 'chat.bogus' });
  assert.deepEqual(actions.calls, ['ask:where?:workspace', 'copy:the answer', 'view:e1']);
  assert.equal(actions.errors.length, 1);
});

test('a new conversation is refused while a question runs, and clears entries otherwise', async () => {
  const { store, router, actions } = setup();
  store.addEntry(entry('e1', 'running'));
  await router.receive({ type: 'chat.newConversation' });
  assert.equal(store.entries.length, 1);
  assert.match(actions.errors[0] ?? '', /Stop the running question/);
  store.updateEntry('e1', { status: 'completed' });
  const before = store.conversationId;
  await router.receive({ type: 'chat.newConversation' });
  assert.equal(store.entries.length, 0);
  assert.notEqual(store.conversationId, before);
  assert.deepEqual(actions.calls, ['endConversation']);
});

test('picking a folder adds and selects it as the target', async () => {
  const { store, router, actions } = setup();
  actions.folder = { kind: 'folder', label: 'src/', uri: 'file:///w/src' };
  await router.receive({ type: 'chat.pickFolder' });
  assert.equal(store.selectedTarget.uri, 'file:///w/src');
  store.setTargets([]);
  assert.equal(store.selectedTarget.kind, 'workspace', 'a target that disappears falls back to the workspace');
});

test('history: refresh on ready, search by words, open, delete only when confirmed', async () => {
  const { store, router, actions } = setup();
  actions.history = [historyItem('/r/a.rlm.jsonl', 'How is auth done?', 1), historyItem('/r/b.rlm.jsonl', 'Where is the auth token stored?', 2), historyItem('/r/c.rlm.jsonl', 'List the tests', 3)];
  await router.receive({ type: 'lifecycle.ready' });
  assert.deepEqual(store.history.items.map((i) => i.path), ['/r/c.rlm.jsonl', '/r/b.rlm.jsonl', '/r/a.rlm.jsonl']);
  await router.receive({ type: 'history.search', query: 'AUTH token' });
  assert.deepEqual(store.history.items.map((i) => i.path), ['/r/b.rlm.jsonl']);
  await router.receive({ type: 'history.open', path: '/r/b.rlm.jsonl' });
  actions.confirmDelete = false;
  await router.receive({ type: 'history.delete', path: '/r/b.rlm.jsonl' });
  assert.equal(store.history.items.length, 1);
  actions.confirmDelete = true;
  await router.receive({ type: 'history.delete', path: '/r/b.rlm.jsonl' });
  assert.equal(store.history.items.length, 0);
  assert.deepEqual(actions.calls, ['open:/r/b.rlm.jsonl', 'delete:/r/b.rlm.jsonl', 'delete:/r/b.rlm.jsonl']);
});

test('history: Continue this run… and Fork from this turn… on a past run', async () => {
  const { router, actions } = setup();
  await router.receive({ type: 'history.continue', path: '/r/a.rlm.jsonl', fork: false });
  await router.receive({ type: 'history.continue', path: '/r/a.rlm.jsonl', fork: true });
  assert.deepEqual(actions.calls, ['continue:/r/a.rlm.jsonl', 'fork:/r/a.rlm.jsonl']);
});

test('a history that cannot be read becomes a sentence in the state', async () => {
  const { store, router, actions } = setup();
  actions.listHistory = async () => {
    throw new Error('EACCES: permission denied');
  };
  await router.receive({ type: 'history.refresh' });
  assert.match(store.history.error ?? '', /could not be read: EACCES/);
  assert.equal(store.history.loading, false);
});

test('a question about a target the host never offered is refused', async () => {
  const { router, actions } = setup();
  await router.receive({ type: 'chat.ask', question: 'read it', target: { kind: 'file', label: 'passwd', uri: 'file:///etc/passwd' } });
  await router.receive({ type: 'chat.selectTarget', target: { kind: 'folder', label: 'root', uri: 'file:///' } });
  assert.deepEqual(actions.calls, []);
  assert.equal(actions.errors.length, 2);
});

test('chat: a reference of the answer opens at its line; an unknown one is an error said to the user', async () => {
  const { store, router, actions } = setup();
  store.addEntry(entry('e1', 'completed', { answer: 'see notes.txt:2', references: [{ path: 'notes.txt', line: 2, text: 'gamma delta' }] }));
  await router.receive({ type: 'chat.openReference', entryId: 'e1', index: 0 });
  assert.deepEqual(actions.calls, ['reference:e1:notes.txt:2']);
  await router.receive({ type: 'chat.openReference', entryId: 'e1', index: 3 });
  assert.equal(actions.errors.length, 1);
  await router.receive({ type: 'chat.openReference', entryId: 'e1', index: -1 });
  assert.equal(actions.calls.length, 1, 'a malformed message opens nothing');
});

test('chat: a failure\'s next step runs only when the entry offers it, with the server its key is for', async () => {
  const { store, router, actions } = setup();
  const outcome = { tone: 'error' as const, headline: 'Failed before any turn finished', detail: 'Set the API key for it.', askAgain: true, steps: ['setApiKey' as const, 'configureModels' as const], keySlot: { provider: 'openai', baseUrl: 'http://127.0.0.1:9/v1' } };
  store.addEntry(entry('e1', 'error', { outcome }));
  await router.receive({ type: 'chat.nextStep', entryId: 'e1', step: 'setApiKey' });
  await router.receive({ type: 'chat.nextStep', entryId: 'e1', step: 'configureModels' });
  // Not offered by this entry, unknown step, unknown entry: nothing runs.
  await router.receive({ type: 'chat.nextStep', entryId: 'e1', step: 'manageTrust' });
  await router.receive({ type: 'chat.nextStep', entryId: 'e1', step: 'rm -rf' });
  await router.receive({ type: 'chat.nextStep', entryId: 'nope', step: 'showLog' });
  assert.deepEqual(actions.calls, ['step:setApiKey:openai@http://127.0.0.1:9/v1', 'step:configureModels:openai@http://127.0.0.1:9/v1']);
});
