// Above the turns in timeline mode: what each colour means, and the run's time axis that the thin
// track of every turn is drawn against.
import type { RunHeaderView } from '../../src/shared/trajectoryProtocol';
import { formatDuration } from '../../src/shared/text/format';
import { el } from '../common/dom';
import { axisTicks } from './timelineLayout';

const KEYS: Array<[string, string]> = [
  ['wf-model', 'root model'],
  ['wf-cell', 'code cell'],
  ['wf-llm_query', 'llm_query'],
  ['wf-rlm_query', 'rlm_query (child run)'],
  ['wf-error', 'error'],
];

/** An axis of ticks at round times, for a track of `durationMs`. */
export function axis(durationMs: number, className = ''): HTMLElement {
  const row = el('div', { className: `wf-axis ${className}`.trim(), attrs: { 'aria-hidden': 'true' } });
  for (const tick of axisTicks(durationMs)) {
    const mark = el('span', { className: 'wf-tick', text: tick.label });
    mark.style.left = `${tick.at}%`;
    if (tick.at > 85) mark.classList.add('wf-tick-end');
    row.appendChild(mark);
  }
  return row;
}

export class TimelineLegend {
  readonly element = el('div', { className: 'wf-legend', attrs: { role: 'note', 'aria-label': 'Timeline legend' } });

  constructor() {
    this.element.hidden = true;
  }

  show(header: RunHeaderView | undefined): void {
    this.element.hidden = header === undefined;
    if (!header) return;
    const duration = Math.max(1, (header.finishedAt ?? Date.now()) - header.startedAt);
    this.element.replaceChildren(
      el('div', { className: 'wf-keys' }, KEYS.map(([cls, label]) => el('span', { className: 'wf-key' }, [el('span', { className: `wf-swatch wf-bar ${cls}` }), label]))),
      el('div', { className: 'wf-legend-run' }, [el('span', { className: 'wf-legend-label', text: `Whole run, ${formatDuration(duration)}: where each turn falls` }), axis(duration, 'wf-run-axis')]),
      el('div', { className: 'muted small', text: 'Under each turn: its own time axis, one lane per call that ran at the same time.' }),
    );
  }
}
