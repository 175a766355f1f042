// One root-model turn: its reasoning (markdown, collapsible), streamed text while live, protocol
// notices and its cells. Used for the root run and, nested, for child runs.
import type { TurnView } from '../../src/shared/trajectoryProtocol';
import { renderMarkdown } from '../common/markdown';
import { renderStreaming } from '../common/streamingView';
import { cellView } from './cellView';
import { loadRest } from './textBlock';
import { el, icon, spinner } from '../common/dom';
import { formatDuration, plural } from '../../src/shared/text/format';
import { formatUsage, turnModelText } from './viewFormat';
import type { RenderContext } from './renderContext';

function reasoningView(ctx: RenderContext, turn: TurnView): HTMLElement | null {
  if (!turn.reasoning) return null;
  const body = el('div', { className: 'markdown reasoning-body' });
  renderMarkdown(document, body, turn.reasoning.text);
  const details = el('details', { className: 'reasoning' }, [el('summary', {}, [icon('comment'), ' Reasoning']), body]);
  details.open = true;
  if (turn.reasoning.totalChars > turn.reasoning.text.length) {
    const more = el('button', { className: 'show-all', attrs: { type: 'button' }, text: 'Show all reasoning' });
    more.addEventListener('click', () => {
      more.disabled = true;
      let full = turn.reasoning!.text;
      loadRest(ctx, { kind: 'reasoning', runId: turn.runId, turnIndex: turn.index }, full.length, turn.reasoning!.totalChars, (p) => (full += p))
        .then(() => {
          body.textContent = '';
          renderMarkdown(document, body, full);
          more.remove();
        })
        .catch((e: unknown) => ctx.notify('error', `Could not load the reasoning: ${String(e)}`));
    });
    details.appendChild(more);
  }
  return details;
}

export function turnHeader(ctx: RenderContext, turn: TurnView): HTMLElement {
  const pricing = ctx.rootHeader().pricing;
  const model = turnModelText(turn, pricing.rootLocal);
  const modelUsage = model && !turn.replayed ? `${model} · ${formatDuration(turn.latencyMs)}` : model;
  if (turn.author === 'user') {
    return el('header', { className: 'turn-head' }, [
      el('h2', { className: 'user-label' }, [icon('account'), ' You']),
      el('span', { className: 'turn-metrics', text: 'your own cell, run in the run\'s REPL' }),
      turn.totals.errors ? el('span', { className: 'badge error', text: plural(turn.totals.errors, 'error') }) : null,
      turn.totals.subCalls ? el('span', { className: 'turn-metrics', text: `${plural(turn.totals.subCalls, 'sub-call')} (yours) · ${formatUsage(turn.totals, pricing.subLocal)}` }) : null,
    ]);
  }
  return el('header', { className: 'turn-head' }, [
    el('h2', { text: `Turn ${turn.turn}` }),
    turn.forcedFinal ? el('span', { className: 'badge warn', text: 'asked for its best answer' }) : null,
    turn.replayed ? el('span', { className: 'badge replayed', text: 'replayed', title: 'A turn of the recorded run, replayed: the reply came from the record' }) : null,
    turn.totals.errors ? el('span', { className: 'badge error', text: plural(turn.totals.errors, 'error') }) : null,
    modelUsage ? el('span', { className: 'turn-metrics', text: modelUsage }) : null,
    turn.totals.subCalls ? el('span', { className: 'turn-metrics', text: `${plural(turn.totals.subCalls, 'sub-call')} · total ${formatUsage(turn.totals, pricing.rootLocal && pricing.subLocal)}` }) : null,
  ]);
}

/** What a turn without model output says: the model is still thinking, or it was stopped while it did. */
function emptyTurnNote(ctx: RenderContext, turn: TurnView): HTMLElement {
  if (turn.waiting && ctx.rootHeader().status === 'running') return el('div', { className: 'thinking', attrs: { role: 'status', 'data-testid': 'thinking' } }, [spinner(), ' The model is thinking…']);
  const status = ctx.rootHeader().status;
  const why = status === 'cancelled' ? 'The run was stopped while the model was thinking.' : status === 'running' ? 'Waiting for the model.' : 'The model sent nothing for this turn.';
  return el('div', { className: 'muted small', text: why });
}

const NOTICE_WORDS: Record<string, string> = {
  no_code: 'No code block',
  multiple_blocks: 'More than one code block',
  final_in_prose: 'Answer written outside the code',
};

function noticeTitle(kind: string): string {
  return NOTICE_WORDS[kind] ?? kind.replace(/[_-]+/g, ' ').replace(/^./, (c) => c.toUpperCase());
}

export function renderTurn(ctx: RenderContext, turn: TurnView): HTMLElement {
  const user = turn.author === 'user';
  const article = el('article', { className: user ? 'turn user-turn' : 'turn', attrs: { 'aria-label': user ? 'Your cell' : `Turn ${turn.turn}` } });
  article.dataset.runId = turn.runId;
  article.dataset.index = String(turn.index);
  article.appendChild(turnHeader(ctx, turn));
  const reasoning = reasoningView(ctx, turn);
  if (reasoning) article.appendChild(reasoning);
  if (turn.streaming !== undefined) {
    const box = el('div', { className: 'streaming', attrs: { 'aria-live': 'polite', 'data-testid': 'streaming' } });
    renderStreaming(box, turn.streaming);
    article.appendChild(box);
  }
  for (const notice of turn.notices) article.appendChild(el('div', { className: 'note warn' }, [icon('info'), ` ${noticeTitle(notice.kind)}: ${notice.message}`]));
  for (const cell of turn.cells) article.appendChild(cellView(ctx, cell, turn.runId, turn.turn));
  if (!user && !reasoning && turn.streaming === undefined && turn.cells.length === 0 && turn.notices.length === 0) article.appendChild(emptyTurnNote(ctx, turn));
  return article;
}
