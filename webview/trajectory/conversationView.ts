// A file that holds a question and its follow-ups (a conversation): every question with its answer,
// how it ended, its own figures and how it stood to the question before it, then the total. The first
// question's turns are the view's list below; a follow-up's turns open in place, a page at a time.
import { visibleControls } from '../../src/shared/text/untrustedText';
import type { ConversationRunView, ConversationView, TurnView } from '../../src/shared/trajectoryProtocol';
import { PAGE } from '../../src/shared/trajectoryProtocol';
import { formatDuration, plural } from '../../src/shared/text/format';
import { el, icon } from '../common/dom';
import { formatUsage, statusIcon, statusLabel } from './viewFormat';
import type { RenderContext } from './renderContext';

/** `local`: every model of the file is served with no per-token charge (costs read "local"). */
export function conversationView(ctx: RenderContext, conversation: ConversationView, local: boolean): HTMLElement {
  const count = conversation.runs.length;
  const total = conversation.totals;
  const section = el('section', { className: 'conversation', attrs: { 'aria-label': `Conversation of ${count} questions` } }, [
    el('div', { className: 'conversation-head' }, [
      el('span', { className: 'stat-label', text: `Conversation · ${count} questions` }),
      el('span', { className: 'conversation-total', text: `Total: ${formatUsage(total, local)} · ${plural(total.subCalls, 'sub-call')} · ${formatDuration(total.wallTimeMs)}` }),
    ]),
  ]);
  const list = el('ol', { className: 'conversation-runs' });
  conversation.runs.forEach((run, i) => list.appendChild(runItem(ctx, run, i, local)));
  section.appendChild(list);
  return section;
}

function runItem(ctx: RenderContext, run: ConversationRunView, index: number, local: boolean): HTMLElement {
  const item = el('li', { className: `conversation-run status-${run.status}` }, [
    el('div', { className: 'conversation-question' }, [el('strong', { text: `Q${index + 1} ` }), run.question.text]),
    el('div', { className: 'conversation-answer' }, [el('strong', { text: 'Answer: ' }), run.answer ? run.answer.text : 'none']),
    el('div', { className: 'conversation-figures' }, [
      icon(statusIcon(run.status)),
      ` ${statusLabel(run.status)}${run.forced && run.status !== 'forced' ? ' (best answer at the limit)' : ''} · ${plural(run.iterations, 'turn')} · ${formatUsage(run.totals, local)} · ${plural(run.totals.subCalls, 'sub-call')} · ${formatDuration(run.totals.wallTimeMs)}`,
    ]),
    run.session ? el('div', { className: 'conversation-session muted', text: run.session }) : null,
  ]);
  item.dataset.runId = run.runId;
  if (index === 0) {
    item.appendChild(el('div', { className: 'muted', text: 'Its turns are listed below.' }));
    return item;
  }
  const details = el('details', { className: 'conversation-turns' }, [el('summary', { text: `Turns of question ${index + 1}` })]);
  let loaded = false;
  details.addEventListener('toggle', () => {
    if (!details.open || loaded) return;
    loaded = true;
    const body = el('div', { className: 'child-turns' }, [el('div', { className: 'muted', text: 'Loading…' })]);
    details.appendChild(body);
    void loadTurns(ctx, run, body);
  });
  item.appendChild(details);
  return item;
}

async function loadTurns(ctx: RenderContext, run: ConversationRunView, target: HTMLElement): Promise<void> {
  try {
    let from = 0;
    target.textContent = '';
    const more = el('button', { className: 'show-all', attrs: { type: 'button' } });
    const page = async (): Promise<void> => {
      const answer = await ctx.bridge.request({ type: 'requestTurns', runId: run.runId, from, count: PAGE.turnsPerPage });
      if (answer.type !== 'turns') return;
      for (const turn of answer.turns as TurnView[]) target.insertBefore(ctx.renderTurn(turn), more.isConnected ? more : null);
      from += answer.turns.length;
      if (from < run.iterations && answer.turns.length > 0) {
        more.textContent = `Show more turns (${run.iterations - from} left)`;
        if (!more.isConnected) target.appendChild(more);
      } else more.remove();
    };
    more.addEventListener('click', () => void page());
    await page();
  } catch (error) {
    target.textContent = visibleControls(`Could not load the turns: ${error instanceof Error ? error.message : String(error)}`);
  }
}
