// One root-model turn: its reasoning (markdown, collapsible), streamed text while live, protocol
// notices and its cells. Used for the root run and, nested, for child runs.
import type { TurnView } from '../../src/shared/trajectoryProtocol';
import { renderMarkdown } from '../common/markdown';
import { cellView } from './cellView';
import { loadRest } from './textBlock';
import { el, icon } from '../common/dom';
import { formatCost, formatDuration, formatTokenCount } from '../../src/shared/format';
import { formatUsage } from './viewFormat';
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

export function turnHeader(turn: TurnView): HTMLElement {
  const modelUsage =
    turn.inputTokens !== undefined ? `root ${formatTokenCount(turn.inputTokens)} in · ${formatTokenCount(turn.outputTokens ?? 0)} out · ${formatCost(turn.costUsd)} · ${formatDuration(turn.latencyMs)}` : '';
  return el('header', { className: 'turn-head' }, [
    el('h2', { text: `Turn ${turn.turn}` }),
    turn.forcedFinal ? el('span', { className: 'badge warn', text: 'forced final answer' }) : null,
    turn.totals.errors ? el('span', { className: 'badge error', text: `${turn.totals.errors} error${turn.totals.errors === 1 ? '' : 's'}` }) : null,
    el('span', { className: 'turn-metrics', text: modelUsage }),
    turn.totals.subCalls ? el('span', { className: 'turn-metrics', text: `${turn.totals.subCalls} sub-calls · total ${formatUsage(turn.totals)}` }) : null,
  ]);
}

export function renderTurn(ctx: RenderContext, turn: TurnView): HTMLElement {
  const article = el('article', { className: 'turn', attrs: { 'aria-label': `Turn ${turn.turn}` } });
  article.dataset.runId = turn.runId;
  article.dataset.index = String(turn.index);
  article.appendChild(turnHeader(turn));
  const reasoning = reasoningView(ctx, turn);
  if (reasoning) article.appendChild(reasoning);
  if (turn.streaming !== undefined) article.appendChild(el('pre', { className: 'streaming', text: turn.streaming, attrs: { 'aria-live': 'polite' } }));
  for (const notice of turn.notices) article.appendChild(el('div', { className: 'note warn' }, [icon('info'), ` ${notice.kind}: ${notice.message}`]));
  for (const cell of turn.cells) article.appendChild(cellView(ctx, cell, turn.runId, turn.turn));
  if (!reasoning && turn.streaming === undefined && turn.cells.length === 0 && turn.notices.length === 0) {
    article.appendChild(el('div', { className: 'muted small', text: 'No model output was recorded for this turn.' }));
  }
  return article;
}
