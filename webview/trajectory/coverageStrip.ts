// The coverage strip beside the answer: the input as a row of equal runs of lines, each shaded by how
// much of it the run saw (in cell output or sub-call prompts) and marked where the answer cites it, so
// a reader sees what the answer rests on and what was never looked at. An estimate (whole-line matches).
import type { CoverageView } from '../../src/shared/trajectoryProtocol';
import { el } from '../common/dom';
import { plural } from '../../src/shared/text/format';
import { coverageSeenText } from './viewFormat';

function fileAt(c: CoverageView, line: number): string {
  let name = '';
  for (const f of c.files) if (f.firstLine <= line) name = f.path;
  return name;
}

export function coverageStrip(c: CoverageView): HTMLElement {
  const strip = el('div', { className: 'coverage-strip', attrs: { role: 'img', 'aria-label': `Coverage: ${coverageSeenText(c)}, ${c.citedLines} cited` } });
  const per = c.totalLines / Math.max(1, c.buckets.length);
  c.buckets.forEach((b, i) => {
    const from = Math.floor(i * per) + 1;
    const to = Math.max(from, Math.floor((i + 1) * per));
    const seen = Math.max(b.cell, b.subcall);
    const state = b.cited ? 'cited' : seen ? 'seen' : 'unseen';
    const cell = el('span', {
      className: `coverage-cell ${state}`,
      title: `lines ${from}–${to}${fileAt(c, from) ? ` (${fileAt(c, from)})` : ''}: ${b.cell} seen in cell output, ${b.subcall} sent to sub-calls, ${b.cited} cited, of ${b.lines}`,
    });
    // Shade by the share seen: one line seen in a large run still shows, faintly.
    if (state === 'seen') cell.style.opacity = String(0.35 + 0.65 * Math.min(1, seen / Math.max(1, b.lines)));
    strip.appendChild(cell);
  });
  return el('section', { className: 'coverage', attrs: { 'aria-label': 'Coverage of the input' } }, [
    el('div', { className: 'stat-label', text: 'Coverage of the input (estimate)' }),
    strip,
    coverageLegend(c),
  ]);
}

/** A key for the strip's three states, each with its count, so a marked run never reads as "0% seen" unexplained. */
function coverageLegend(c: CoverageView): HTMLElement {
  const lines = (n: number): string => plural(n, 'line');
  const entry = (state: string, text: string): HTMLElement => el('span', { className: 'coverage-key' }, [el('span', { className: `coverage-swatch ${state}`, attrs: { 'aria-hidden': 'true' } }), el('span', { text })]);
  return el('div', { className: 'muted coverage-legend' }, [
    entry('seen', `${coverageSeenText(c)} in cell output or sub-call prompts`),
    entry('cited', `${lines(c.citedLines)} cited by the answer`),
    entry('unseen', 'never shown to a model'),
    // A notebook's lines are those of its text form, which the notebook editor does not show.
    ...(c.files.some((f) => typeof f.path === 'string' && f.path.toLowerCase().endsWith('.ipynb')) ? [el('span', { className: 'coverage-key', text: "Notebooks count the lines of their text form: cell markers, sources and outputs." })] : []),
  ]);
}
