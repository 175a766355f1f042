// Sidebar chat webview entry: handshake, then render whatever state the host sends. Re-renders keep
// keyboard focus on the control that had it, and the tabs follow the ARIA tabs pattern (arrow keys,
// Home/End, aria-controls).
import type { SidebarState } from '../../src/shared/sidebarState';
import { renderEntry } from './chatView';
import { Composer } from './composer';
import { actionButton, el, icon, keepingFocus, vscodeButton } from '../common/dom';
import { createHistorySearch, renderHistoryList } from './historyView';
import { connectToHost } from './hostChannel';
import { applyHostMessage } from './sidebarModel';
import { RovingFocus } from '../common/rovingFocus';

const host = connectToHost();
const app = document.getElementById('app') ?? document.body;
const composer = new Composer(host);
let state: SidebarState | undefined;

const TABS: Array<{ id: SidebarState['tab']; label: string; icon: string }> = [
  { id: 'chat', label: 'Chat', icon: 'comment-discussion' },
  { id: 'history', label: 'History', icon: 'history' },
];

const tabs = el('div', { className: 'tabs', attrs: { role: 'tablist', 'aria-label': 'RLM' } });
const banners = el('div', { className: 'banners' });
const entries = el('div', { className: 'entries', attrs: { role: 'log', 'aria-label': 'Conversation', 'data-testid': 'entries' } });
// The conversation is one Tab stop (arrow keys move within it), so the question box is a few Tabs away
// however long the conversation grows. Before the user picks a control, Tab enters on the newest answer.
const entriesFocus = new RovingFocus(entries, (controls) => {
  const newest = entries.querySelector('article.entry:last-of-type');
  const first = controls.findIndex((c) => newest?.contains(c));
  return first >= 0 ? first : controls.length - 1;
});
const chatPanel = el('section', { className: 'panel chat-panel', attrs: { role: 'tabpanel', id: 'panel-chat', 'aria-labelledby': 'tab-chat' } }, [banners, entries, composer.element]);
const historySearch = createHistorySearch(host);
const historyList = el('div', { className: 'history-scroll' });
const historyPanel = el('section', { className: 'panel history-panel', attrs: { role: 'tabpanel', id: 'panel-history', 'aria-labelledby': 'tab-history' } }, [historySearch.element, historyList]);

function tab(id: SidebarState['tab'], label: string, iconName: string): HTMLElement {
  const selected = state?.tab === id;
  const button = el('button', {
    className: `tab${selected ? ' selected' : ''}`,
    attrs: { type: 'button', role: 'tab', id: `tab-${id}`, 'aria-selected': selected ? 'true' : 'false', 'aria-controls': `panel-${id}`, tabindex: selected ? '0' : '-1', 'data-testid': `tab-${id}`, 'data-focus-key': `tab-${id}` },
  }, [icon(iconName), label]);
  button.addEventListener('click', () => host.post({ type: 'lifecycle.switchTab', tab: id }));
  return button;
}

tabs.addEventListener('keydown', (event) => {
  const keys: Record<string, (i: number) => number> = { ArrowRight: (i) => i + 1, ArrowLeft: (i) => i - 1, Home: () => 0, End: () => TABS.length - 1 };
  const move = keys[event.key];
  if (!move || !state) return;
  event.preventDefault();
  const at = TABS.findIndex((t) => t.id === state?.tab);
  const next = TABS[(move(at) + TABS.length) % TABS.length]!;
  // Focus moves at once; the host's state makes the selection stick.
  document.getElementById(`tab-${next.id}`)?.focus();
  host.post({ type: 'lifecycle.switchTab', tab: next.id });
});

function renderBanners(s: SidebarState): void {
  banners.replaceChildren();
  if (!s.trusted) {
    banners.append(el('div', { className: 'banner warning', attrs: { role: 'status' } }, [icon('shield'), el('span', { className: 'banner-text', text: 'Asking is disabled: this workspace is not trusted, and its settings could send your files elsewhere. Recorded runs can still be opened.' })]));
  }
  if (!s.modelLabel) {
    banners.append(
      el('div', { className: 'banner', attrs: { role: 'status', 'data-testid': 'no-model' } }, [icon('info'), el('span', { className: 'banner-text', text: 'No model is configured yet.' }), vscodeButton('Configure models...', () => host.post({ type: 'chat.configureModels' }), { testId: 'configure-models', focusKey: 'configure-models' })]),
    );
  } else {
    const label = actionButton(s.modelLabel, () => host.post({ type: 'chat.configureModels' }), { icon: 'server', title: 'Configure models...', focusKey: 'model-label' });
    label.classList.add('model-label');
    banners.append(el('div', { className: 'model-row' }, [label, s.entries.length ? vscodeButton('New conversation', () => host.post({ type: 'chat.newConversation' }), { secondary: true, icon: 'add', testId: 'new-conversation', focusKey: 'new-conversation' }) : null]));
  }
}

function renderEntries(s: SidebarState): void {
  if (s.entries.length === 0) {
    entries.replaceChildren(el('p', { className: 'muted empty', text: s.emptyHint ?? '', attrs: { 'data-testid': 'empty-hint' } }));
    return;
  }
  entries.replaceChildren(...s.entries.map((e) => renderEntry(e, host)));
  entriesFocus.refresh();
}

function renderAll(s: SidebarState): void {
  tabs.replaceChildren(...TABS.map((t) => tab(t.id, t.label, t.icon)));
  chatPanel.hidden = s.tab !== 'chat';
  historyPanel.hidden = s.tab !== 'history';
  renderBanners(s);
  renderEntries(s);
  composer.update(s);
  historySearch.update(s.history.query);
  historyList.replaceChildren(renderHistoryList(s.history, host, Date.now()));
}

host.onMessage((message) => {
  const previous = state;
  const wasAtBottom = entries.scrollHeight - entries.scrollTop - entries.clientHeight < 40;
  const { state: next, change } = applyHostMessage(state, message);
  state = next;
  const current = state;
  if (!current || !change) return;
  const first = previous === undefined;
  keepingFocus(app, () => {
    if (change === 'all') renderAll(current);
    else if (change === 'history') historyList.replaceChildren(renderHistoryList(current.history, host, Date.now()));
    else {
      const entry = current.entries.find((e) => e.id === change.entryId);
      const old = entries.querySelector(`[data-entry-id="${CSS.escape(change.entryId)}"]`);
      if (entry && old) old.replaceWith(renderEntry(entry, host));
      entriesFocus.refresh();
    }
  });
  // Follow the streaming answer while the user is at the bottom; never yank them back up.
  if (wasAtBottom) entries.scrollTop = entries.scrollHeight;
  // Focused before the first state arrived (the view opened by its focus command): now there is an input.
  if (first && document.hasFocus()) focusInput();
});

/**
 * The view got keyboard focus with nothing in it focused ("RLM: Focus on Chat View", a click on the
 * view's title, Ctrl+0-style navigation): focus the open tab's input, as VS Code's own chat does.
 * A click inside the page is left alone — focus goes where the user clicked.
 */
let pointerFocus = false;
window.addEventListener('pointerdown', () => {
  pointerFocus = true;
  setTimeout(() => (pointerFocus = false), 0);
}, true);
function focusInput(): void {
  if (pointerFocus || (document.activeElement && document.activeElement !== document.body)) return;
  if (state?.tab === 'history') historySearch.focus();
  else composer.focus();
}
window.addEventListener('focus', focusInput);

app.replaceChildren(tabs, chatPanel, historyPanel);
host.post({ type: 'lifecycle.ready' });
