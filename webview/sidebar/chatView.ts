// The conversation: each question with its live line, streamed text, answer (markdown, raw HTML
// disabled), error, and actions. Entries re-render individually when the host sends one.
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { ChatEntry } from '../../src/shared/sidebarState';
import { isActiveStatus } from '../../src/shared/sidebarState';
import { formatLiveLine } from '../../src/shared/format';
import { renderMarkdown } from '../common/markdown';
import { button, h, icon, linkAction } from './dom';
import type { HostChannel } from './hostChannel';
import { statusText } from './sidebarModel';

export function renderEntry(entry: ChatEntry, host: HostChannel): HTMLElement {
  const active = isActiveStatus(entry.status);
  const question = h('div', { class: 'question' }, icon('account'), h('span', { class: 'question-text' }, entry.question));
  const target = h('div', { class: 'target' }, icon(entry.target.kind === 'workspace' ? 'root-folder' : entry.target.kind === 'folder' ? 'folder' : 'file'), entry.target.label);
  const statusLine = h(
    'div',
    { class: `live-line status-${entry.status}`, 'data-testid': 'live-line' },
    active ? h('vscode-progress-ring', { class: 'ring' }) : icon(entry.status === 'completed' ? 'check' : entry.status === 'error' ? 'error' : entry.status === 'cancelled' ? 'debug-stop' : 'info'),
    h('span', {}, `${statusText(entry.status)}${entry.status === 'gathering' ? '' : ` · ${formatLiveLine(entry.live)}`}`),
    active && entry.live.activity ? h('span', { class: 'activity' }, ` — ${entry.live.activity}`) : null,
  );
  const body = h('div', { class: 'entry-body' });
  if (entry.answer !== undefined) {
    const answer = h('div', { class: 'answer markdown', 'data-testid': 'answer' });
    renderMarkdown(document, answer, entry.answer);
    body.append(answer);
    if (entry.references?.length) body.append(referenceList(entry, host));
  } else if (active && entry.streamingText) {
    body.append(h('pre', { class: 'streaming', 'data-testid': 'streaming' }, entry.streamingText));
  }
  if (entry.errorMessage) body.append(h('div', { class: 'error-message', role: 'alert' }, icon('warning'), entry.errorMessage));
  const actions = h('div', { class: 'entry-actions' });
  if (active) actions.append(button('Stop', () => host.post({ type: 'chat.stop', entryId: entry.id }), { secondary: true, icon: 'debug-stop', testId: 'stop' }));
  if (entry.runId || entry.trajectoryPath) actions.append(linkAction('View trajectory', () => host.post({ type: 'chat.viewTrajectory', entryId: entry.id }), { icon: 'list-tree', testId: 'view-trajectory' }));
  if (entry.answer !== undefined) actions.append(linkAction('Copy answer', () => host.post({ type: 'chat.copyAnswer', entryId: entry.id }), { icon: 'copy', testId: 'copy-answer' }));
  return h('article', { class: 'entry', 'data-entry-id': entry.id, 'aria-busy': active ? 'true' : 'false' }, question, target, statusLine, body, actions);
}

/** The answer's citations as links that open the file at the line; the cited text beside each. */
function referenceList(entry: ChatEntry, host: HostChannel): HTMLElement {
  const list = h('ol', { class: 'references', 'data-testid': 'references', 'aria-label': 'References' });
  entry.references!.forEach((reference, index) => {
    const label = `${reference.path}:${reference.line}${reference.endLine !== undefined ? `-${reference.endLine}` : ''}`;
    const link = h('a', { href: '#', class: 'reference-link', title: `Open ${label}` }, label);
    link.addEventListener('click', (event) => {
      event.preventDefault();
      host.post({ type: 'chat.openReference', entryId: entry.id, index });
    });
    list.append(h('li', {}, link, h('span', { class: 'reference-text' }, reference.text.length > 120 ? `${reference.text.slice(0, 119)}…` : reference.text)));
  });
  return list;
}
