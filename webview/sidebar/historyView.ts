// The history tab: past runs from the trajectory directory, grouped by conversation (follow-ups under
// the question they followed), searchable by question, kept up to date by the host.
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { HistoryItem, HistoryState } from '../../src/shared/sidebarState';
import { actionButton, el, icon, spinner } from '../common/dom';
import { groupHistory } from './historyGroups';
import type { HostChannel } from './hostChannel';
import { relativeTime, statusText } from './sidebarModel';

function itemView(item: HistoryItem, host: HostChannel, now: number, followUp: boolean): HTMLElement {
  const open = (): void => host.post({ type: 'history.open', path: item.path });
  const title = actionButton(item.question, open, { title: `Open this run (${item.path})`, focusKey: `history:${item.path}` });
  title.classList.add('history-question');
  const running = item.status === 'running';
  // Right-click: Continue this run… / Fork from this turn… (package.json webview/context), given the file.
  const menuContext = JSON.stringify({ webviewSection: 'historyItem', trajectoryPath: item.path, preventDefaultContextMenuItems: true });
  return el('div', { className: `history-item${followUp ? ' follow-up' : ''}`, attrs: { role: 'listitem', 'data-testid': 'history-item', 'data-vscode-context': menuContext } }, [
    followUp ? el('div', { className: 'follow-up-mark' }, [icon('reply'), ' Follow-up']) : null,
    item.askedBy ? el('div', { className: 'follow-up-mark', attrs: { 'data-testid': 'history-asked-by', title: `Asked by ${item.askedBy}, not typed by a person` } }, [icon('robot'), ` Asked by ${item.askedBy}`]) : null,
    title,
    el('div', { className: 'history-meta' }, [running ? spinner() : null, `${running ? ' ' : ''}${relativeTime(item.startedAt, now)} · ${statusText({ status: item.status })}${item.targetLabel ? ` · ${item.targetLabel}` : ''}`]),
    item.answerPreview ? el('div', { className: 'history-preview', text: item.answerPreview, title: item.answerPreview }) : null,
    el('div', { className: 'entry-actions' }, [
      actionButton('Open', open, { icon: 'go-to-file', focusKey: `history-open:${item.path}` }),
      actionButton('Continue…', () => host.post({ type: 'history.continue', path: item.path, fork: false }), { icon: 'comment-discussion', testId: 'history-continue', focusKey: `history-continue:${item.path}` }),
      actionButton('Fork…', () => host.post({ type: 'history.continue', path: item.path, fork: true }), { icon: 'repo-forked', testId: 'history-fork', focusKey: `history-fork:${item.path}` }),
      actionButton('Delete', () => host.post({ type: 'history.delete', path: item.path }), { icon: 'trash', testId: 'history-delete', focusKey: `history-delete:${item.path}` }),
    ]),
  ]);
}

export function renderHistoryList(history: HistoryState, host: HostChannel, now: number): HTMLElement {
  const list = el('div', { className: 'history-list', attrs: { role: 'list', 'aria-label': 'Past questions', 'data-testid': 'history-list' } });
  if (history.error) list.append(el('div', { className: 'error-message', attrs: { role: 'alert' } }, [icon('warning'), history.error]));
  else if (history.loading && history.items.length === 0) list.append(el('p', { className: 'muted', text: 'Reading the run history…' }));
  else if (history.items.length === 0) list.append(el('p', { className: 'muted', text: history.query ? 'No past question matches the search.' : 'No runs recorded yet. Ask a question in the Chat tab.' }));
  for (const group of groupHistory(history.items)) {
    const box = el('div', { className: `history-group${group.followUps.length ? ' has-follow-ups' : ''}`, attrs: { 'data-testid': 'history-group' } }, [itemView(group.first, host, now, false)]);
    if (group.followUps.length) {
      box.append(el('div', { className: 'follow-ups', attrs: { role: 'list', 'aria-label': `Follow-ups to: ${group.first.question}` } }, group.followUps.map((f) => itemView(f, host, now, true))));
    }
    list.append(box);
  }
  return list;
}

/** The search row, created once so typing is never interrupted; `update` follows the host's query. */
export function createHistorySearch(host: HostChannel): { element: HTMLElement; update(query: string): void } {
  const field = el('vscode-textfield', { attrs: { placeholder: 'Search past questions', 'aria-label': 'Search past questions', 'data-testid': 'history-search' } }) as HTMLElement & { value: string };
  field.addEventListener('input', () => host.post({ type: 'history.search', query: field.value }));
  return {
    element: el('div', { className: 'history-search' }, [field]),
    update(query) {
      if (document.activeElement !== field && field.value !== query) field.value = query;
    },
  };
}
