// The conversation: each question with its live line, the model's text while it works (prose as
// text, code as code, a spinner while it thinks), and at the end the answer (markdown, raw HTML
// disabled) or what happened instead: a stop, a limit or a failure in words, partial findings
// marked as not an answer, and the actions that help next (Ask again, Set a price…).
import '@vscode-elements/elements/dist/vscode-progress-ring/index.js';
import { NEXT_STEP_LABELS } from '../../src/shared/nextStep';
import type { NextStep } from '../../src/shared/nextStep';
import type { ChatEntry } from '../../src/shared/sidebarState';
import { isActiveStatus } from '../../src/shared/sidebarState';
import { formatFigures, formatLiveLine } from '../../src/shared/text/liveLine';
import { renderMarkdown } from '../common/markdown';
import { linkMentions } from '../common/mentionLinks';
import { referenceLabel } from '../../src/shared/text/referenceLabel';
import { actionButton, el, icon, spinner, vscodeButton } from '../common/dom';
import type { HostChannel } from './hostChannel';
import { statusText } from './sidebarModel';
import { splitStreamingText } from '../common/streamingText';
import { renderStreaming } from '../common/streamingView';

const STEP_ICONS: Record<NextStep, string> = { setApiKey: 'key', configureModels: 'server', testConnection: 'plug', showLog: 'output', openSettings: 'settings-gear', manageTrust: 'shield', stop: 'debug-stop' };

const TONE_ICONS = { ok: 'check', neutral: 'stop-circle', warning: 'warning', error: 'error', running: 'loading' } as const;

function liveLine(entry: ChatEntry, active: boolean): HTMLElement {
  const tone = entry.outcome?.tone ?? (entry.status === 'completed' ? 'ok' : entry.status === 'error' ? 'error' : 'neutral');
  const figures = entry.status === 'gathering' || entry.status === 'queued' ? '' : active ? ` · ${formatLiveLine(entry.live)}` : entry.live.turn || entry.live.inputTokens ? ` · ${formatFigures(entry.live)}` : '';
  return el('div', { className: `live-line status-${entry.status} tone-${active ? 'running' : tone}`, attrs: { 'data-testid': 'live-line' } }, [
    active ? el('vscode-progress-ring', { className: 'ring', attrs: { 'aria-hidden': 'true' } }) : icon(TONE_ICONS[tone]),
    el('span', { text: `${statusText(entry)}${figures}` }),
  ]);
}

/** The model's text so far: prose rendered, code shown as the code that will run. */
function working(entry: ChatEntry): HTMLElement {
  const box = el('div', { className: 'working', attrs: { 'data-testid': 'streaming', 'aria-live': 'polite' } });
  const segments = splitStreamingText(entry.streamingText);
  if (segments.length === 0) {
    const what = entry.status === 'gathering' ? 'Reading the files…' : entry.status === 'queued' ? 'Waiting for the question before it…' : entry.live.activity ? `${entry.live.activity.charAt(0).toUpperCase()}${entry.live.activity.slice(1)}…` : 'The model is thinking…';
    box.append(el('div', { className: 'thinking', attrs: { 'data-testid': 'thinking' } }, [spinner(), ` ${what}`]));
    return box;
  }
  renderStreaming(box, entry.streamingText);
  return box;
}

function partialFindings(text: string): HTMLElement {
  const details = el('details', { className: 'partial-findings', attrs: { 'data-testid': 'partial-findings' } }, [
    el('summary', {}, [icon('info'), ' Partial findings — not an answer']),
    el('p', { className: 'muted', text: 'The last output its code printed before the run ended. Check it before relying on it.' }),
    el('pre', { text }),
  ]);
  return details;
}

export function renderEntry(entry: ChatEntry, host: HostChannel): HTMLElement {
  const active = isActiveStatus(entry.status);
  const key = (action: string): string => `${entry.id}:${action}`;
  const question = el('div', { className: 'question' }, [icon('account'), el('span', { className: 'question-text', text: entry.question })]);
  const target = el('div', { className: 'target' }, [icon(entry.target.kind === 'workspace' ? 'root-folder' : entry.target.kind === 'folder' ? 'folder' : 'file'), entry.target.label]);
  const body = el('div', { className: 'entry-body' });
  if (entry.answer !== undefined) {
    const answer = el('div', { className: 'answer markdown', attrs: { 'data-testid': 'answer' } });
    renderMarkdown(document, answer, entry.answer);
    linkMentions(answer, entry.references ?? [], (index) => host.post({ type: 'chat.openReference', entryId: entry.id, index }));
    body.append(answer);
    if (entry.references?.length) body.append(referenceList(entry, host));
  } else if (active) {
    body.append(working(entry));
  }
  const outcome = entry.outcome;
  if (!active && outcome?.detail) body.append(el('div', { className: `outcome-detail tone-${outcome.tone}`, attrs: { role: outcome.tone === 'error' ? 'alert' : 'note' }, text: outcome.detail }));
  if (!active && entry.answer === undefined && entry.partial) body.append(partialFindings(entry.partial));
  const actions = el('div', { className: 'entry-actions' });
  if (active) actions.append(vscodeButton('Stop', () => host.post({ type: 'chat.stop', entryId: entry.id }), { secondary: true, icon: 'debug-stop', testId: 'stop', focusKey: key('stop') }));
  // The failure's next step first ("Configure models...", "Set API key..."): the detail names it.
  for (const step of active ? [] : (outcome?.steps ?? [])) actions.append(actionButton(NEXT_STEP_LABELS[step], () => host.post({ type: 'chat.nextStep', entryId: entry.id, step }), { icon: STEP_ICONS[step], testId: `step-${step}`, focusKey: key(`step-${step}`) }));
  if (!active && outcome?.askAgain) actions.append(actionButton('Ask again', () => host.post({ type: 'chat.askAgain', entryId: entry.id }), { icon: 'refresh', testId: 'ask-again', focusKey: key('ask-again') }));
  if (!active && outcome?.setting) actions.append(actionButton(`Open ${outcome.setting}`, () => host.post({ type: 'chat.openSetting', entryId: entry.id }), { icon: 'settings-gear', focusKey: key('setting') }));
  if (entry.runId || entry.trajectoryPath) actions.append(actionButton('View trajectory', () => host.post({ type: 'chat.viewTrajectory', entryId: entry.id }), { icon: 'list-tree', testId: 'view-trajectory', focusKey: key('view') }));
  if (entry.answer !== undefined) actions.append(actionButton('Copy answer', () => host.post({ type: 'chat.copyAnswer', entryId: entry.id }), { icon: 'copy', testId: 'copy-answer', focusKey: key('copy') }));
  if (!active && entry.live.costUnknown) actions.append(actionButton('Set a price…', () => host.post({ type: 'chat.setPrice', entryId: entry.id }), { icon: 'tag', testId: 'set-price', focusKey: key('price'), title: entry.unpricedModels?.length ? `No price is known for ${entry.unpricedModels.join(', ')}` : 'No price is known for a model of this run' }));
  return el('article', { className: `entry tone-${active ? 'running' : (outcome?.tone ?? 'neutral')}`, attrs: { 'data-entry-id': entry.id, 'aria-busy': active ? 'true' : 'false' } }, [question, target, liveLine(entry, active), body, actions]);
}

/** The answer's citations as links that open the file at the line; the cited text beside each. */
function referenceList(entry: ChatEntry, host: HostChannel): HTMLElement {
  const list = el('ol', { className: 'references', attrs: { 'data-testid': 'references', 'aria-label': 'References' } });
  entry.references!.forEach((reference, index) => {
    const label = referenceLabel(reference);
    const link = el('a', { className: 'reference-link', text: label, title: `Open ${label}`, attrs: { href: '#', 'data-focus-key': `${entry.id}:reference:${index}` } });
    link.addEventListener('click', (event) => {
      event.preventDefault();
      host.post({ type: 'chat.openReference', entryId: entry.id, index });
    });
    const quote = reference.text.length > 120 ? `${reference.text.slice(0, 119)}…` : reference.text;
    list.append(el('li', {}, quote.trim() ? [link, el('span', { className: 'reference-text', text: quote })] : [link]));
  });
  return list;
}
