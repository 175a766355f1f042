// Sidebar chat webview entry: handshake, then render whatever state the host sends.
import type { SidebarState } from '../../src/shared/sidebarState';
import { renderEntry } from './chatView';
import { Composer } from './composer';
import { actionButton, el, icon, vscodeButton } from '../common/dom';
import { createHistorySearch, renderHistoryList } from './historyView';
import { connectToHost } from './hostChannel';
import { applyHostMessage } from './sidebarModel';

const host = connectToHost();
const app = document.getElementById('app') ?? document.body;
const composer = new Composer(host);
let state: SidebarState | undefined;

const tabs = el('div', { className: 'tabs', attrs: { role: 'tablist' } });
const banners = el('div', { className: 'banners' });
const entries = el('div', { className: 'entries', attrs: { role: 'log', 'aria-label': 'Conversation', 'data-testid': 'entries' } });
const chatPanel = el('section', { className: 'panel chat-panel', attrs: { role: 'tabpanel', 'aria-label': 'Chat' } }, [banners, entries, composer.element]);
const historySearch = createHistorySearch(host);
const historyList = el('div');
const historyPanel = el('section', { className: 'panel history-panel', attrs: { role: 'tabpanel', 'aria-label': 'History' } }, [historySearch.element, historyList]);

function tab(id: SidebarState['tab'], label: string, iconName: string): HTMLElement {
  const selected = state?.tab === id;
  const button = el('button', { className: `tab${selected ? ' selected' : ''}`, attrs: { role: 'tab', 'aria-selected': selected ? 'true' : 'false', 'data-testid': `tab-${id}` } }, [icon(iconName), label]);
  button.addEventListener('click', () => host.post({ type: 'lifecycle.switchTab', tab: id }));
  return button;
}

function renderBanners(s: SidebarState): void {
  banners.replaceChildren();
  if (!s.trusted) {
    banners.append(el('div', { className: 'banner warning', attrs: { role: 'status' } }, [icon('shield'), el('span', { className: 'banner-text', text: 'Asking is disabled: this workspace is not trusted, and its settings could send your files elsewhere. Recorded runs can still be opened.' })]));
  }
  if (!s.modelLabel) {
    banners.append(
      el('div', { className: 'banner', attrs: { role: 'status', 'data-testid': 'no-model' } }, [icon('info'), el('span', { className: 'banner-text', text: 'No model is configured yet.' }), vscodeButton('Configure models...', () => host.post({ type: 'chat.configureModels' }), { testId: 'configure-models' })]),
    );
  } else {
    const label = actionButton(s.modelLabel, () => host.post({ type: 'chat.configureModels' }), { icon: 'server', title: 'Configure models...' });
    label.classList.add('model-label');
    banners.append(el('div', { className: 'model-row' }, [label, s.entries.length ? vscodeButton('New conversation', () => host.post({ type: 'chat.newConversation' }), { secondary: true, icon: 'add', testId: 'new-conversation' }) : null]));
  }
}

function renderEntries(s: SidebarState): void {
  if (s.entries.length === 0) {
    entries.replaceChildren(el('p', { className: 'muted empty', text: 'Ask a question about the workspace, the current file or a folder. The files stay in a local Python sandbox; the model explores them with code.' }));
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
