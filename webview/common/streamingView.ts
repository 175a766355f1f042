// The model's text while it streams, as both views show it: prose rendered (Markdown, raw HTML off),
// code in a labelled code box ("Writing Python code…" until its fence closes), never a raw fence.
import { renderMarkdown } from './markdown';
import { el, icon } from './dom';
import { splitStreamingText } from './streamingText';

/** Appends the segments of `text` to `box` (emptied first). */
export function renderStreaming(box: HTMLElement, text: string): void {
  box.replaceChildren();
  for (const segment of splitStreamingText(text)) {
    if (segment.kind === 'prose') {
      const prose = el('div', { className: 'stream-prose markdown' });
      renderMarkdown(document, prose, segment.text);
      box.append(prose);
    } else {
      box.append(
        el('div', { className: 'code-preview' }, [
          el('div', { className: 'code-label' }, [icon('code'), segment.complete ? ' Python code (runs next)' : ' Writing Python code…']),
          el('pre', { text: segment.text }),
        ]),
      );
    }
  }
}
