// The waterfall rendering of a turn: where it sits in the whole run, and inside it when each cell and
// sub-call ran, parallel calls on separate lanes.
import type { RunHeaderView, TurnSummary, TurnView } from '../../src/shared/trajectoryProtocol';
import { el } from '../common/dom';
import { layoutWaterfall, placeOnTrack, type Span } from './timelineLayout';
import { formatDuration } from '../../src/shared/text/format';
import { axis } from './timelineLegend';

function bar(className: string, left: number, width: number, lane: number, title: string): HTMLElement {
  const node = el('div', { className: `wf-bar ${className}`, title });
  node.style.left = `${left}%`;
  node.style.width = `${width}%`;
  node.style.top = `${lane * 10}px`;
  return node;
}

/** The thin whole-run track: this turn's position among all turns. */
export function runTrack(summary: TurnSummary, header: RunHeaderView, now: number): HTMLElement {
  const end = header.finishedAt ?? now;
  const placed = placeOnTrack({ id: 'turn', start: summary.startedAt, end: summary.finishedAt }, header.startedAt, end, now);
  const track = el('div', { className: 'wf-track wf-run', attrs: { 'aria-hidden': 'true' } });
  track.appendChild(bar(summary.errors ? 'wf-error' : 'wf-turn', placed.left, placed.width, 0, `Turn ${summary.turn}`));
  return track;
}

export function timelineRow(turn: TurnView, summary: TurnSummary, header: RunHeaderView, now: number): HTMLElement {
  const start = turn.startedAt;
  const end = Math.max(turn.finishedAt ?? now, start + 1);
  const spans: Array<Span & { className: string; title: string }> = [];
  if (turn.latencyMs !== undefined) {
    spans.push({ id: 'model', start, end: start + turn.latencyMs, className: 'wf-model', title: `root model ${formatDuration(turn.latencyMs)}` });
  }
  for (const cell of turn.cells) {
    spans.push({ id: `cell:${cell.cellId}`, start: cell.startedAt, end: cell.finishedAt, className: cell.error ? 'wf-error wf-cell' : 'wf-cell', title: `cell ${formatDuration(cell.durationMs)}` });
    for (const entry of cell.subCalls) {
      const calls = entry.kind === 'call' ? [entry.call] : entry.calls;
      for (const call of calls) {
        spans.push({
          id: `call:${call.callId}`,
          start: call.startedAt,
          end: call.finishedAt,
          className: `${call.status === 'error' ? 'wf-error ' : ''}wf-call wf-${call.kind}`,
          title: `${call.kind} ${call.model} ${formatDuration(call.latencyMs)}`,
        });
      }
    }
  }
  const { placed, lanes } = layoutWaterfall(spans, start, end, now);
  const detail = el('div', { className: 'wf-track wf-detail' });
  detail.style.height = `${Math.max(1, lanes) * 10 + 4}px`;
  placed.forEach((p, i) => {
    const span = spans[i]!;
    detail.appendChild(bar(span.className + (p.running ? ' wf-running' : ''), p.left, p.width, p.lane, span.title));
  });
  return el('div', { className: 'wf-row', attrs: { role: 'group', 'aria-label': `Timeline of turn ${turn.turn}` } }, [
    el('div', { className: 'wf-label', text: `Turn ${turn.turn} · ${formatDuration(end - start)}${lanes > 1 ? ` · up to ${lanes} at once` : ''}${summary.label ? ` · ${summary.label}` : ''}` }),
    runTrack(summary, header, now),
    detail,
    axis(end - start),
  ]);
}
