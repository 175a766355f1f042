// Sidebar chat webview entry: handshake, then render whatever state the host sends.
import type { SidebarState } from '../../src/shared/sidebarState';
import { renderEntry } from './chatView';
import { Composer } from './composer';
import { button, h, icon } from './dom';
import { createHistorySearch, renderHistoryList } from './historyView';
import { connectToHost } from './hostChannel';
import { applyHostMessage } from './sidebarModel';

const host = connectToHost();
const app = document.getElementById('app') ?? document.body;
const composer = new Composer(host);
let state: SidebarState | undefined;

const tabs = h('div', { class: 'tabs', role: 'tablist' });
const banners = h('div', { class: 'banners' });
const entries = h('div', { class: 'entries', role: 'log', 'aria-label': 'Conversation', 'data-testid': 'entries' });
const chatPanel = h('section', { class: 'panel chat-panel', role: 'tabpanel', 'aria-label': 'Chat' }, banners, entries, composer.element);
const historySearch = createHistorySearch(host);
const historyList = h('div');
const historyPanel = h('section', { class: 'panel history-panel', role: 'tabpanel', 'aria-label': 'History' }, historySearch.element, historyList);

function tab(id: SidebarState['tab'], label: string, iconName: string): HTMLElement {
  const selected = state?.tab === id;
  const el = h('button', { class: `tab${selected ? ' selected' : ''}`, role: 'tab', 'aria-selected': selected ? 'true' : 'false', 'data-testid': `tab-${id}` }, icon(iconName), label);
  el.addEventListener('click', () => host.post({ type: 'lifecycle.switchTab', tab: id }));
  return el;
}

function renderBanners(s: SidebarState): void {
  banners.replaceChildren();
  if (!s.trusted) {
    banners.append(h('div', { class: 'banner warning', role: 'status' }, icon('shield'), h('span', { class: 'banner-text' }, 'Asking is disabled: this workspace is not trusted, and its settings could send your files elsewhere. Recorded runs can still be opened.')));
  }
  if (!s.modelLabel) {
    banners.append(
      h('div', { class: 'banner', role: 'status', 'data-testid': 'no-model' }, icon('info'), h('span', { class: 'banner-text' }, 'No model is configured yet.'), button('Configure models...', () => host.post({ type: 'chat.configureModels' }), { testId: 'configure-models' })),
    );
  } else {
    const label = h('a', { href: '#', class: 'model-label', title: 'Configure models...' }, icon('server'), s.modelLabel);
    label.addEventListener('click', (e) => {
      e.preventDefault();
      host.post({ type: 'chat.configureModels' });
    });
    banners.append(h('div', { class: 'model-row' }, label, s.entries.length ? button('New conversation', () => host.post({ type: 'chat.newConversation' }), { secondary: true, icon: 'add', testId: 'new-conversation' }) : null));
  }
}

function renderEntries(s: SidebarState): void {
  if (s.entries.length === 0) {
    entries.replaceChildren(h('p', { class: 'muted empty', 'data-testid': 'empty-hint' }, s.emptyHint ?? ''));
    return;
  }
  entries.replaceChildren(...s.entries.map((e) => renderEntry(e, host)));
}

function renderAll(s: SidebarState): void {
  tabs.replaceChildren(tab('chat', 'Chat', 'comment-discussion'), tab('history', 'History', 'history'));
  chatPanel.hidden = s.tab !== 'chat';
  historyPanel.hidden = s.tab !== 'history';
  renderBanners(s);
  renderEntries(s);
  composer.update(s);
  historySearch.update(s.history.query);
  historyList.replaceChildren(renderHistoryList(s.history, host, Date.now()));
}

host.onMessage((message) => {
  const wasAtBottom = entries.scrollHeight - entries.scrollTop - entries.clientHeight < 40;
  const { state: next, change } = applyHostMessage(state, message);
  state = next;
  if (!state || !change) return;
  if (change === 'all') renderAll(state);
  else if (change === 'history') historyList.replaceChildren(renderHistoryList(state.history, host, Date.now()));
  else {
    const entry = state.entries.find((e) => e.id === change.entryId);
    const old = entries.querySelector(`[data-entry-id="${CSS.escape(change.entryId)}"]`);
    if (entry && old) old.replaceWith(renderEntry(entry, host));
  }
  // Follow the streaming answer while the user is at the bottom; never yank them back up.
  if (wasAtBottom) entries.scrollTop = entries.scrollHeight;
});

app.replaceChildren(tabs, chatPanel, historyPanel);
host.post({ type: 'lifecycle.ready' });
