// The history tab: past runs from the trajectory directory, grouped by conversation (follow-ups under
// the question they followed), searchable by question, kept up to date by the host.
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import type { HistoryItem, HistoryState } from '../../src/shared/sidebarState';
import { actionButton, el, icon, iconButton, spinner } from '../common/dom';
import { groupHistory } from './historyGroups';
import type { HostChannel } from './hostChannel';
import { relativeTime, statusText } from './sidebarModel';

function itemView(item: HistoryItem, host: HostChannel, now: number, followUp: boolean): HTMLElement {
  const open = (): void => host.post({ type: 'history.open', path: item.path });
  const title = actionButton(item.question, open, { title: `${item.question}\nOpen this run (${item.path})`, focusKey: `history:${item.path}` });
  title.classList.add('history-question');
  const running = item.status === 'running';
  // Right-click (or Shift+F10): Open, Continue this run…, Fork from this turn…, Delete… (package.json
  // webview/context), given the file.
  const menuContext = JSON.stringify({ webviewSection: 'historyItem', trajectoryPath: item.path, preventDefaultContextMenuItems: true });
  // Inline actions as VS Code's own views show them: icons on the item's row, shown on hover and
  // keyboard focus, each with a tooltip and a label for screen readers; Open is the question itself.
  const actions = el('div', { className: 'history-actions' }, [
    iconButton('comment-discussion', 'Continue this run…', () => host.post({ type: 'history.continue', path: item.path, fork: false }), undefined, { testId: 'history-continue', focusKey: `history-continue:${item.path}` }),
    iconButton('repo-forked', 'Fork from a turn…', () => host.post({ type: 'history.continue', path: item.path, fork: true }), undefined, { testId: 'history-fork', focusKey: `history-fork:${item.path}` }),
    iconButton('trash', 'Delete this run…', () => host.post({ type: 'history.delete', path: item.path }), undefined, { testId: 'history-delete', focusKey: `history-delete:${item.path}` }),
  ]);
  return el('div', { className: `history-item${followUp ? ' follow-up' : ''}`, attrs: { role: 'listitem', 'data-testid': 'history-item', 'data-vscode-context': menuContext } }, [
    followUp ? el('div', { className: 'follow-up-mark' }, [icon('reply'), ' Follow-up']) : null,
    item.askedBy ? el('div', { className: 'follow-up-mark', attrs: { 'data-testid': 'history-asked-by', title: `Asked by ${item.askedBy}, not typed by a person` } }, [icon('robot'), ` Asked by ${item.askedBy}`]) : null,
    el('div', { className: 'history-row' }, [title, actions]),
    el('div', { className: 'history-meta' }, [running ? spinner() : null, `${running ? ' ' : ''}${relativeTime(item.startedAt, now)} · ${statusText({ status: item.status })}${item.targetLabel ? ` · ${item.targetLabel}` : ''}`]),
    item.answerPreview ? el('div', { className: 'history-preview', text: item.answerPreview, title: item.answerPreview }) : null,
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
export function createHistorySearch(host: HostChannel): { element: HTMLElement; update(query: string): void; focus(): void } {
  const field = el('vscode-textfield', { attrs: { placeholder: 'Search past questions', 'aria-label': 'Search past questions', 'data-testid': 'history-search' } }) as HTMLElement & { value: string };
  field.addEventListener('input', () => host.post({ type: 'history.search', query: field.value }));
  return {
    element: el('div', { className: 'history-search' }, [field]),
    update(query) {
      if (document.activeElement !== field && field.value !== query) field.value = query;
    },
    focus() {
      field.focus();
    },
  };
}
