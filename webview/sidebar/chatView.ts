// The conversation: each question with its live line, streamed text, answer (markdown, raw HTML
// disabled), error, and actions. Entries re-render individually when the host sends one.
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import type { ChatEntry } from '../../src/shared/sidebarState';
import { isActiveStatus } from '../../src/shared/sidebarState';
import { formatLiveLine } from '../../src/shared/liveLine';
import { renderMarkdown } from '../common/markdown';
import { actionButton, el, icon, vscodeButton } from '../common/dom';
import type { HostChannel } from './hostChannel';
import { statusText } from './sidebarModel';

export function renderEntry(entry: ChatEntry, host: HostChannel): HTMLElement {
  const active = isActiveStatus(entry.status);
  const question = el('div', { className: 'question' }, [icon('account'), el('span', { className: 'question-text', text: entry.question })]);
  const target = el('div', { className: 'target' }, [icon(entry.target.kind === 'workspace' ? 'root-folder' : entry.target.kind === 'folder' ? 'folder' : 'file'), entry.target.label]);
  const statusLine = el('div', { className: `live-line status-${entry.status}`, attrs: { 'data-testid': 'live-line' } }, [
    active ? el('vscode-progress-ring', { className: 'ring' }) : icon(entry.status === 'completed' ? 'check' : entry.status === 'error' ? 'error' : entry.status === 'cancelled' ? 'debug-stop' : 'info'),
    el('span', { text: `${statusText(entry.status)}${entry.status === 'gathering' ? '' : ` · ${formatLiveLine(entry.live)}`}` }),
    active && entry.live.activity ? el('span', { className: 'activity', text: ` — ${entry.live.activity}` }) : null,
  ]);
  const body = el('div', { className: 'entry-body' });
  if (entry.answer !== undefined) {
    const answer = el('div', { className: 'answer markdown', attrs: { 'data-testid': 'answer' } });
    renderMarkdown(document, answer, entry.answer);
    body.append(answer);
  } else if (active && entry.streamingText) {
    body.append(el('pre', { className: 'streaming', text: entry.streamingText, attrs: { 'data-testid': 'streaming' } }));
  }
  if (entry.errorMessage) body.append(el('div', { className: 'error-message', attrs: { role: 'alert' } }, [icon('warning'), entry.errorMessage]));
  const actions = el('div', { className: 'entry-actions' });
  if (active) actions.append(vscodeButton('Stop', () => host.post({ type: 'chat.stop', entryId: entry.id }), { secondary: true, icon: 'debug-stop', testId: 'stop' }));
  if (entry.runId || entry.trajectoryPath) actions.append(actionButton('View trajectory', () => host.post({ type: 'chat.viewTrajectory', entryId: entry.id }), { icon: 'list-tree', testId: 'view-trajectory' }));
  if (entry.answer !== undefined) actions.append(actionButton('Copy answer', () => host.post({ type: 'chat.copyAnswer', entryId: entry.id }), { icon: 'copy', testId: 'copy-answer' }));
  return el('article', { className: 'entry', attrs: { 'data-entry-id': entry.id, 'aria-busy': active ? 'true' : 'false' } }, [question, target, statusLine, body, actions]);
}
