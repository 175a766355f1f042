// A Python code cell: highlighted lines with line numbers, a copy button, and "show all" for code
// longer than its preview.
import type { TextPreview, TextRef } from '../../src/shared/trajectoryProtocol';
import { el, iconButton, clear, inertTextNode } from '../common/dom';
import { highlightPython } from './pythonTokens';
import { loadRest } from './textBlock';
import { formatChars } from './viewFormat';
import type { RenderContext } from './renderContext';

function renderLines(target: HTMLElement, code: string): void {
  clear(target);
  const lines = highlightPython(code);
  const frag = document.createDocumentFragment();
  lines.forEach((segments, i) => {
    const line = el('div', { className: 'code-line' }, [el('span', { className: 'ln', text: String(i + 1), attrs: { 'aria-hidden': 'true' } })]);
    const body = el('span', { className: 'lc' });
    for (const seg of segments) {
      if (seg.scope) body.appendChild(el('span', { className: `hljs-${seg.scope.replace(/\./g, ' hljs-')}`, text: seg.text }));
      else body.appendChild(inertTextNode(seg.text));
    }
    line.appendChild(body);
    frag.appendChild(line);
  });
  target.appendChild(frag);
}

export function codeView(ctx: RenderContext, code: TextPreview, ref: TextRef): HTMLElement {
  const lines = el('div', { className: 'code-lines', attrs: { role: 'region', 'aria-label': 'Python code' } });
  renderLines(lines, code.text);
  const copy = iconButton('copy', 'Copy code', () => ctx.bridge.post({ type: 'copy', ref }));
  const block = el('div', { className: 'code-block' }, [el('div', { className: 'code-tools' }, [el('span', { className: 'text-label', text: 'Python' }), copy]), lines]);
  if (code.totalChars > code.text.length) {
    const more = el('button', { className: 'show-all', attrs: { type: 'button' }, text: `Show all code (${formatChars(code.totalChars)})` });
    more.addEventListener('click', () => {
      more.disabled = true;
      let full = code.text;
      loadRest(ctx, ref, code.text.length, code.totalChars, (page) => (full += page))
        .then(() => {
          renderLines(lines, full);
          more.remove();
        })
        .catch((error: unknown) => {
          more.disabled = false;
          ctx.notify('error', `Could not load the code: ${error instanceof Error ? error.message : String(error)}`);
        });
    });
    block.appendChild(more);
  }
  return block;
}
