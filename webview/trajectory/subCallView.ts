// The sub-call tree under a cell: llm_query calls, batches (collapsed, with count, errors and cost)
// and rlm_query calls whose child run is rendered with the same turn renderer. Bodies are built when
// first opened, so thousands of calls cost one <details> each until someone looks.
import { visibleControls } from '../../src/shared/text/untrustedText';
import type { SubCallEntry, SubCallView, TurnView } from '../../src/shared/trajectoryProtocol';
import { el, icon } from '../common/dom';
import { textBlock } from './textBlock';
import { formatDuration, plural } from '../../src/shared/text/format';
import { callFiguresText, formatUsage, statusIcon, statusLabel } from './viewFormat';
import type { RenderContext } from './renderContext';

function lazyDetails(className: string, summary: HTMLElement, build: () => HTMLElement, open = false): HTMLDetailsElement {
  const details = el('details', { className }, [summary]);
  let built = false;
  const ensure = (): void => {
    if (built) return;
    built = true;
    details.appendChild(build());
  };
  details.addEventListener('toggle', () => {
    if (details.open) ensure();
  });
  if (open) {
    details.open = true;
    ensure();
  }
  return details;
}

/** A call cancelled (by Stop, or by the provider before it ran) did not fail: it is not shown in red. */
function shownStatus(call: SubCallView): SubCallView['status'] | 'cancelled' {
  return call.status === 'error' && (call.error?.kind === 'cancelled' || call.error?.kind === 'batch_canceled') ? 'cancelled' : call.status;
}

function callSummary(call: SubCallView, local: boolean): HTMLElement {
  const status = shownStatus(call);
  const state = status === 'cancelled' ? 'circle-slash' : status === 'error' ? 'error' : status === 'running' ? 'loading' : 'pass';
  // A cached or replayed call sent nothing: its figures say so, not "0 in · 0 out".
  const usage = callFiguresText(call, local);
  return el('summary', { className: `call-summary status-${status}` }, [
    icon(state, status === 'running' ? 'codicon-modifier-spin' : ''),
    el('span', { className: 'call-kind', text: call.batchIndex !== undefined ? `#${call.batchIndex} ${call.kind}` : call.kind }),
    el('span', { className: 'chip', text: call.model }),
    el('span', { className: 'chip', text: `depth ${call.depth}` }),
    call.fallback ? el('span', { className: 'badge warn', text: `fallback: ${call.fallback}` }) : null,
    call.cached ? el('span', { className: 'badge cached', text: 'cached', title: 'Answered from the sub-call cache: no request was sent', attrs: { 'data-testid': 'cached-call' } }) : null,
    call.replayed ? el('span', { className: 'badge replayed', text: 'replayed', title: 'Answered from the recorded run: not sent, not billed' }) : null,
    call.author === 'user' ? el('span', { className: 'badge user', text: 'yours', title: 'Made by your own cell: billed to you' }) : null,
    el('span', { className: 'call-preview', text: call.prompt.text.slice(0, 120).replace(/\s+/g, ' ') }),
    el('span', { className: 'call-metrics', text: [usage, call.replayed ? '' : formatDuration(call.latencyMs)].filter(Boolean).join(' · ') }),
    call.child
      ? el('span', { className: 'call-metrics rolled', text: `total ${formatUsage(call.totals, local)}`, title: 'Rolled up over everything under this call' })
      : null,
  ]);
}

function childRunView(ctx: RenderContext, call: SubCallView): HTMLElement {
  const child = call.child!;
  const box = el('div', { className: 'child-run' }, [
    el('div', { className: 'child-run-head' }, [
      icon(statusIcon(child.status)),
      el('span', { text: `Child run · ${plural(child.turns, 'turn')} · ${statusLabel(child.status)} · ${formatUsage(child.totals, ctx.rootHeader().pricing.subLocal)}` }),
    ]),
  ]);
  const turns = el('div', { className: 'child-turns' }, [el('div', { className: 'muted', text: 'Loading child run…' })]);
  box.appendChild(turns);
  void loadChildTurns(ctx, child.runId, turns);
  return box;
}

async function loadChildTurns(ctx: RenderContext, runId: string, target: HTMLElement): Promise<void> {
  try {
    const run = await ctx.bridge.request({ type: 'requestRun', runId });
    if (run.type !== 'run') return;
    const total = run.outline.length;
    target.textContent = '';
    if (run.header.answer) target.appendChild(el('div', { className: 'child-answer' }, [el('strong', { text: 'Child answer: ' }), run.header.answer.text]));
    let from = 0;
    const more = el('button', { className: 'show-all', attrs: { type: 'button' } });
    const loadPage = async (): Promise<void> => {
      const answer = await ctx.bridge.request({ type: 'requestTurns', runId, from, count: 12 });
      if (answer.type !== 'turns') return;
      for (const turn of answer.turns as TurnView[]) target.insertBefore(ctx.renderTurn(turn), more.isConnected ? more : null);
      from += answer.turns.length;
      if (from < total && answer.turns.length > 0) {
        more.textContent = `Show more turns (${total - from} left)`;
        if (!more.isConnected) target.appendChild(more);
      } else more.remove();
    };
    more.addEventListener('click', () => void loadPage());
    await loadPage();
  } catch (error) {
    target.textContent = visibleControls(`Could not load the child run: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function callBody(ctx: RenderContext, call: SubCallView, runId: string): HTMLElement {
  const body = el('div', { className: 'call-body' });
  body.appendChild(textBlock(ctx, call.prompt, { kind: 'prompt', runId, callId: call.callId }, { label: 'Prompt', copy: true }));
  if (call.response) body.appendChild(textBlock(ctx, call.response, { kind: 'response', runId, callId: call.callId }, { label: 'Response', copy: true }));
  if (call.error) body.appendChild(el('div', { className: 'error-box', text: `This call failed (${call.error.kind.replace(/_/g, ' ')}): ${call.error.message}` }));
  if (call.child) body.appendChild(childRunView(ctx, call));
  return body;
}

function callNode(ctx: RenderContext, call: SubCallView, runId: string): HTMLElement {
  const node = lazyDetails(`subcall status-${shownStatus(call)}`, callSummary(call, ctx.rootHeader().pricing.subLocal), () => callBody(ctx, call, runId));
  node.dataset.callId = call.callId;
  node.dataset.runId = runId;
  return node;
}

function batchNode(ctx: RenderContext, batch: Extract<SubCallEntry, { kind: 'batch' }>, runId: string): HTMLElement {
  const running = batch.calls.some((c) => c.status === 'running');
  const summary = el('summary', { className: `call-summary${batch.errors ? ' status-error' : ''}` }, [
    icon('layers'),
    el('span', { className: 'call-kind', text: `batch of ${batch.size}` }),
    running ? el('span', { className: 'chip', text: `${batch.calls.filter((c) => c.status !== 'running').length}/${batch.size} done` }) : null,
    batch.errors ? el('span', { className: 'badge error', text: plural(batch.errors, 'error') }) : null,
    batch.cancelled ? el('span', { className: 'badge', text: `${batch.cancelled} cancelled`, attrs: { 'data-testid': 'batch-cancelled' } }) : null,
    el('span', { className: 'call-metrics', text: `${formatUsage(batch.totals, ctx.rootHeader().pricing.subLocal)} · ${formatDuration(batch.totals.wallTimeMs || undefined)}` }),
  ]);
  const node = lazyDetails('subcall batch', summary, () => {
    const list = el('div', { className: 'call-list' });
    for (const call of batch.calls) list.appendChild(callNode(ctx, call, runId));
    return list;
  });
  node.dataset.batchId = batch.batchId;
  return node;
}

export function subCallTree(ctx: RenderContext, entries: SubCallEntry[], runId: string): HTMLElement | null {
  if (entries.length === 0) return null;
  const list = el('div', { className: 'call-list', attrs: { role: 'group', 'aria-label': 'Sub-calls' } });
  for (const entry of entries) list.appendChild(entry.kind === 'call' ? callNode(ctx, entry.call, runId) : batchNode(ctx, entry, runId));
  return list;
}
