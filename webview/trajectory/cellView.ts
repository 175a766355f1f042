// One executed cell: code, output (stdout and stderr apart, what the root saw), error, final answer,
// flags, new variables, timing, and its sub-call tree.
import type { CellView, ProviderBatchView } from '../../src/shared/trajectoryProtocol';
import { describeProviderBatch, providerBatchDiscountText } from '../../src/shared/text/providerBatchText';
import { codeView } from './codeView';
import { el, icon } from '../common/dom';
import { subCallTree } from './subCallView';
import { textBlock } from './textBlock';
import { formatDuration, plural } from '../../src/shared/text/format';
import { batchEstimateText, formatUsage } from './viewFormat';
import type { RenderContext } from './renderContext';

export function cellView(ctx: RenderContext, cell: CellView, runId: string, turnNumber: number): HTMLElement {
  const user = cell.author === 'user';
  const section = el('section', { className: `cell${user ? ' user-cell-run' : ''}${cell.error ? ' has-error' : ''}${cell.running ? ' running' : ''}`, attrs: { tabindex: '0', 'aria-label': user ? 'Your cell' : `Cell of turn ${turnNumber}` } });
  section.dataset.cellId = cell.cellId;
  const flags = [
    cell.running ? el('span', { className: 'badge', text: 'running' }) : null,
    cell.timedOut ? el('span', { className: 'badge warn', text: 'timed out' }) : null,
    cell.interrupted ? el('span', { className: 'badge warn', text: 'interrupted' }) : null,
    cell.restarted ? el('span', { className: 'badge error', text: `REPL restarted: ${cell.restarted.reason}`, title: cell.restarted.detail }) : null,
    cell.final ? el('span', { className: 'badge ok', text: `final (${cell.final.via})` }) : null,
  ];
  section.appendChild(
    el('div', { className: 'cell-head' }, [
      icon(cell.error ? 'error' : cell.running ? 'loading' : 'code', cell.running ? 'codicon-modifier-spin' : ''),
      user ? el('span', { className: 'badge user', text: 'You' }) : null,
      el('span', { className: 'cell-title', text: cell.outIndex !== undefined ? `In [${cell.outIndex}]` : 'Cell' }),
      ...flags,
      el('span', { className: 'cell-metrics', text: `${formatDuration(cell.durationMs)}${cell.totals.subCalls ? ` · ${plural(cell.totals.subCalls, 'sub-call')} · ${formatUsage(cell.totals, ctx.rootHeader().pricing.subLocal)}` : ''}` }),
    ]),
  );
  section.appendChild(codeView(ctx, cell.code, { kind: 'code', runId, cellId: cell.cellId }));
  if (cell.stdout) section.appendChild(textBlock(ctx, cell.stdout, { kind: 'stdout', runId, cellId: cell.cellId }, { className: 'stdout', label: 'stdout' }));
  if (cell.stderr) section.appendChild(textBlock(ctx, cell.stderr, { kind: 'stderr', runId, cellId: cell.cellId }, { className: 'stderr', label: 'stderr' }));
  if (!cell.stdout && !cell.stderr && !cell.running && !cell.error) section.appendChild(el('div', { className: 'muted small', text: 'No output.' }));
  if (cell.rootSawNote) section.appendChild(el('div', { className: 'note' }, [icon('eye'), ` ${cell.rootSawNote}`]));
  if (cell.error) {
    section.appendChild(
      el('div', { className: 'error-box', attrs: { role: 'alert' } }, [
        el('div', { className: 'error-title' }, [icon('error'), ` ${cell.error.type}: ${cell.error.message}`]),
        cell.error.traceback.totalChars ? textBlock(ctx, cell.error.traceback, { kind: 'traceback', runId, cellId: cell.cellId }, { className: 'traceback' }) : null,
      ]),
    );
  }
  if (cell.final) section.appendChild(el('div', { className: 'final-box' }, [el('strong', { text: `Final answer (${cell.final.via}): ` }), cell.final.value.text]));
  if (cell.newVariables.length) {
    section.appendChild(el('div', { className: 'vars' }, [el('span', { className: 'muted', text: 'New variables: ' }), ...cell.newVariables.map((v) => el('code', { className: 'chip', text: v }))]));
  }
  for (const estimate of cell.batchEstimates ?? []) {
    section.appendChild(
      el('div', { className: `note batch-estimate${estimate.refused ? ' warn' : ''}`, attrs: { 'data-testid': 'batch-estimate', ...(estimate.refused ? { role: 'alert' } : {}) } }, [
        icon(estimate.refused ? 'warning' : 'graph'),
        ` ${batchEstimateText(estimate)}`,
      ]),
    );
  }
  for (const batch of cell.providerBatches ?? []) section.appendChild(providerBatchNote(ctx, batch));
  const tree = subCallTree(ctx, cell.subCalls, runId);
  if (tree) section.appendChild(tree);
  if (cell.subCallsOmitted) section.appendChild(moreSubCalls(ctx, cell, runId, tree));
  return section;
}

/**
 * A provider batch: its counts and elapsed time, counting on each second while a live run waits for
 * it (the host only hears of it at each poll, up to a minute apart), and the batch price named.
 */
function providerBatchNote(ctx: RenderContext, batch: ProviderBatchView): HTMLElement {
  const header = ctx.rootHeader();
  const ticking = !batch.ended && header.format === 'live' && header.status === 'running';
  const line = el('span', { className: 'provider-batch-line' });
  const show = (): void => {
    const elapsedMs = batch.elapsedMs + (ticking ? Math.max(0, Date.now() - batch.updatedAt) : 0);
    line.textContent = ` ${describeProviderBatch({ ...batch, elapsedMs })}`;
  };
  show();
  const warn = Boolean(batch.cancelled || batch.failure);
  const note = el('div', { className: `note provider-batch${warn ? ' warn' : ''}`, attrs: { 'data-testid': 'provider-batch', 'data-batch-state': batch.cancelled ? 'cancelled' : batch.ended ? 'ended' : 'waiting' } }, [
    icon(batch.ended ? (warn ? 'warning' : 'check') : 'watch'),
    line,
    el('div', { className: 'muted small', text: providerBatchDiscountText(batch.provider) }),
  ]);
  if (ticking) {
    const timer = setInterval(() => {
      // A newer page replaces this element: the timer goes with it.
      if (!note.isConnected) clearInterval(timer);
      else show();
    }, 1000);
  }
  return note;
}

/** Loads the cell again with all of its sub-calls, replacing the shortened tree. */
function moreSubCalls(ctx: RenderContext, cell: CellView, runId: string, shortTree: HTMLElement | null): HTMLElement {
  const button = el('button', { className: 'show-all', attrs: { type: 'button' }, text: `Show ${plural(cell.subCallsOmitted ?? 0, 'more sub-call', 'more sub-calls')}` });
  button.addEventListener('click', () => {
    button.disabled = true;
    ctx.bridge
      .request({ type: 'requestCell', runId, cellId: cell.cellId })
      .then((answer) => {
        if (answer.type !== 'cell') return;
        const full = subCallTree(ctx, answer.cell.subCalls, runId);
        if (full) (shortTree ?? button).replaceWith(full);
        button.remove();
      })
      .catch((error: unknown) => {
        button.disabled = false;
        ctx.notify('error', `Could not load the sub-calls: ${error instanceof Error ? error.message : String(error)}`);
      });
  });
  return button;
}
