// The answer's references under it: each resolved `path:line` is a link that asks the host to open the
// file at that line (by index: the view never names a path to open), with the cited text; citations
// not found in the input are listed apart and marked. Cited text is file text: text nodes only.
import type { RunHeaderView } from '../../src/shared/trajectoryProtocol';
import { referenceLabel } from '../../src/shared/text/referenceLabel';
import { el, icon } from '../common/dom';
import type { RenderContext } from './renderContext';

const SHOWN_TEXT_CHARS = 200;

export function referencesView(ctx: RenderContext, h: RunHeaderView): HTMLElement | null {
  const resolved = h.references ?? [];
  const unresolved = h.unresolvedReferences ?? [];
  if (!resolved.length && !unresolved.length) return null;
  const section = el('section', { className: 'references', attrs: { 'aria-label': 'References in the input' } });
  if (resolved.length) {
    section.appendChild(el('div', { className: 'stat-label', text: `References (${resolved.length})` }));
    const list = el('ol', { className: 'reference-list' });
    resolved.forEach((ref, index) => {
      const label = referenceLabel(ref);
      const link = el('a', { className: 'reference-link', text: label, attrs: { href: '#', role: 'link', 'data-reference': String(index) }, title: `Open ${label}` });
      link.addEventListener('click', (event) => {
        event.preventDefault();
        ctx.bridge.post({ type: 'openReference', runId: h.runId, index });
      });
      const text = ref.text.length > SHOWN_TEXT_CHARS ? `${ref.text.slice(0, SHOWN_TEXT_CHARS)}…` : ref.text;
      // A blank line or a page without text has nothing to quote: no empty chip beside its link.
      list.appendChild(el('li', {}, text.trim() ? [link, el('code', { className: 'reference-text', text })] : [link]));
    });
    section.appendChild(list);
  }
  if (unresolved.length) {
    section.appendChild(el('div', { className: 'stat-label warn', text: `Not found in the input (${unresolved.length})` }));
    const list = el('ul', { className: 'reference-list unresolved' });
    for (const u of unresolved) list.appendChild(el('li', { title: u.reason }, [icon('warning'), el('span', { className: 'reference-citation', text: ` ${u.citation}` }), el('span', { className: 'muted', text: ` — ${u.detail}` })]));
    section.appendChild(list);
  }
  return section;
}
