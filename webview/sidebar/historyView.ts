// The history tab: past runs from the trajectory directory, searchable by question.
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { HistoryState } from '../../src/shared/sidebarState';
import { actionButton, el, icon } from '../common/dom';
import type { HostChannel } from './hostChannel';
import { relativeTime, statusText } from './sidebarModel';

export function renderHistoryList(history: HistoryState, host: HostChannel, now: number): HTMLElement {
  const list = el('div', { className: 'history-list', attrs: { role: 'list', 'data-testid': 'history-list' } });
  if (history.error) list.append(el('div', { className: 'error-message', attrs: { role: 'alert' } }, [icon('warning'), history.error]));
  else if (history.loading && history.items.length === 0) list.append(el('p', { className: 'muted', text: 'Reading the run history…' }));
  else if (history.items.length === 0) list.append(el('p', { className: 'muted', text: history.query ? 'No past run matches the search.' : 'No runs recorded yet. Ask a question in the Chat tab.' }));
  for (const item of history.items) {
    const open = (): void => host.post({ type: 'history.open', path: item.path });
    const title = actionButton(item.question, open, { title: item.path });
    title.classList.add('history-question');
    const row = el('div', { className: 'history-item', attrs: { role: 'listitem', 'data-testid': 'history-item' } }, [
      title,
      el('div', { className: 'history-meta', text: `${relativeTime(item.startedAt, now)} · ${statusText({ status: item.status })}${item.targetLabel ? ` · ${item.targetLabel}` : ''}` }),
      item.answerPreview ? el('div', { className: 'history-preview', text: item.answerPreview }) : null,
      el('div', { className: 'entry-actions' }, [
        actionButton('Open', open, { icon: 'go-to-file' }),
        actionButton('Delete', () => host.post({ type: 'history.delete', path: item.path }), { icon: 'trash', testId: 'history-delete' }),
      ]),
    ]);
    list.append(row);
  }
  return list;
}

/** The search row, created once so typing is never interrupted; `update` follows the host's query. */
export function createHistorySearch(host: HostChannel): { element: HTMLElement; update(query: string): void } {
  const field = el('vscode-textfield', { attrs: { placeholder: 'Search past questions', 'aria-label': 'Search past questions', 'data-testid': 'history-search' } }) as HTMLElement & { value: string };
  field.addEventListener('input', () => host.post({ type: 'history.search', query: field.value }));
  const refresh = actionButton('Refresh', () => host.post({ type: 'history.refresh' }), { icon: 'refresh' });
  return {
    element: el('div', { className: 'history-search' }, [field, refresh]),
    update(query) {
      if (document.activeElement !== field && field.value !== query) field.value = query;
    },
  };
}
