// A preformatted text that shows its preview and pages the rest from the host on "Show all".
import { PAGE, type TextPreview, type TextRef } from '../../src/shared/trajectoryProtocol';
import { el, iconButton, inertTextNode } from '../common/dom';
import { formatChars } from './viewFormat';
import type { RenderContext } from './renderContext';

export interface TextBlockOptions {
  className?: string;
  label?: string;
  /** Offer a copy button (the host copies the full text). */
  copy?: boolean;
}

/** Loads text of `ref` from `offset` to the end, page by page, calling `onPage` with each. */
export async function loadRest(ctx: RenderContext, ref: TextRef, offset: number, total: number, onPage: (text: string) => void): Promise<void> {
  let at = offset;
  while (at < total) {
    const answer = await ctx.bridge.request({ type: 'requestText', ref, offset: at, length: PAGE.textPageChars });
    if (answer.type !== 'text') throw new Error(`unexpected answer ${answer.type}`);
    if (answer.text.length === 0) break;
    onPage(answer.text);
    at += answer.text.length;
    total = answer.totalChars;
  }
}

export function textBlock(ctx: RenderContext, value: TextPreview, ref: TextRef, options: TextBlockOptions = {}): HTMLElement {
  const pre = el('pre', { className: `text-block ${options.className ?? ''}`.trim(), text: value.text });
  const tools = el('div', { className: 'text-tools' });
  if (options.label) tools.appendChild(el('span', { className: 'text-label', text: options.label }));
  if (options.copy) tools.appendChild(iconButton('copy', `Copy ${options.label ?? 'text'}`, () => ctx.bridge.post({ type: 'copy', ref })));
  const wrap = el('div', { className: 'text-wrap' }, [tools.childNodes.length ? tools : null, pre]);
  if (value.totalChars > value.text.length) {
    const more = el('button', {
      className: 'show-all',
      attrs: { type: 'button' },
      text: `Show all (${formatChars(value.totalChars)}, ${formatChars(value.totalChars - value.text.length)} more)`,
    });
    more.addEventListener('click', () => {
      more.disabled = true;
      more.textContent = 'Loading…';
      loadRest(ctx, ref, value.text.length, value.totalChars, (page) => pre.appendChild(inertTextNode(page)))
        .then(() => more.remove())
        .catch((error: unknown) => {
          more.disabled = false;
          more.textContent = 'Show all (retry)';
          ctx.notify('error', `Could not load the rest of the text: ${error instanceof Error ? error.message : String(error)}`);
        });
    });
    wrap.appendChild(more);
  }
  return wrap;
}
