// The history tab: past runs from the trajectory directory, searchable by question.
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { HistoryState } from '../../src/shared/sidebarState';
import { h, icon, linkAction } from './dom';
import type { HostChannel } from './hostChannel';
import { relativeTime, statusText } from './sidebarModel';

export function renderHistoryList(history: HistoryState, host: HostChannel, now: number): HTMLElement {
  const list = h('div', { class: 'history-list', role: 'list', 'data-testid': 'history-list' });
  if (history.error) list.append(h('div', { class: 'error-message', role: 'alert' }, icon('warning'), history.error));
  else if (history.loading && history.items.length === 0) list.append(h('p', { class: 'muted' }, 'Reading the run history…'));
  else if (history.items.length === 0) list.append(h('p', { class: 'muted' }, history.query ? 'No past run matches the search.' : 'No runs recorded yet. Ask a question in the Chat tab.'));
  for (const item of history.items) {
    const open = (): void => host.post({ type: 'history.open', path: item.path });
    const title = h('a', { href: '#', class: 'history-question', title: item.path }, item.question);
    title.addEventListener('click', (e) => {
      e.preventDefault();
      open();
    });
    // Right-click: Continue this run… / Fork from this turn… (package.json webview/context), given the file.
    const menuContext = JSON.stringify({ webviewSection: 'historyItem', trajectoryPath: item.path, preventDefaultContextMenuItems: true });
    const row = h(
      'div',
      { class: 'history-item', role: 'listitem', 'data-testid': 'history-item', 'data-vscode-context': menuContext },
      title,
      h('div', { class: 'history-meta' }, `${relativeTime(item.startedAt, now)} · ${statusText(item.status)}${item.targetLabel ? ` · ${item.targetLabel}` : ''}`),
      item.answerPreview ? h('div', { class: 'history-preview' }, item.answerPreview) : null,
      h(
        'div',
        { class: 'entry-actions' },
        linkAction('Open', open, { icon: 'go-to-file' }),
        linkAction('Continue…', () => host.post({ type: 'history.continue', path: item.path, fork: false }), { icon: 'comment-discussion', testId: 'history-continue' }),
        linkAction('Fork…', () => host.post({ type: 'history.continue', path: item.path, fork: true }), { icon: 'repo-forked', testId: 'history-fork' }),
        linkAction('Delete', () => host.post({ type: 'history.delete', path: item.path }), { icon: 'trash', testId: 'history-delete' }),
      ),
    );
    list.append(row);
  }
  return list;
}

/** The search row, created once so typing is never interrupted; `update` follows the host's query. */
export function createHistorySearch(host: HostChannel): { element: HTMLElement; update(query: string): void } {
  const field = h('vscode-textfield', { placeholder: 'Search past questions', 'aria-label': 'Search past questions', 'data-testid': 'history-search' }) as HTMLElement & { value: string };
  field.addEventListener('input', () => host.post({ type: 'history.search', query: field.value }));
  const refresh = linkAction('Refresh', () => host.post({ type: 'history.refresh' }), { icon: 'refresh' });
  return {
    element: h('div', { class: 'history-search' }, field, refresh),
    update(query) {
      if (document.activeElement !== field && field.value !== query) field.value = query;
    },
  };
}
