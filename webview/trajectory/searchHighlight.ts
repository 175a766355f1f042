// Marks the text a search matched after jumping to it, with the CSS Custom Highlight API: the DOM is
// not touched (no <mark> wrapped around model text), and the mark goes when the next search jumps.
// Where the API is missing, the item still flashes.

const NAME = 'rlm-search';

interface HighlightApi {
  highlights: { set(name: string, value: unknown): void; delete(name: string): void };
}
declare const Highlight: new (...ranges: Range[]) => unknown;

function api(): HighlightApi['highlights'] | undefined {
  const css = (globalThis as { CSS?: Partial<HighlightApi> }).CSS;
  return typeof Highlight === 'function' ? css?.highlights : undefined;
}

/** The first case-insensitive occurrence of `query` in `root`'s text, as a Range (across text nodes of one line). */
function findTextRange(root: Node, query: string): Range | undefined {
  const needle = query.trim().toLowerCase();
  if (!needle) return undefined;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  const nodes: Text[] = [];
  let text = '';
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    nodes.push(n as Text);
    text += (n as Text).data;
  }
  const at = text.toLowerCase().indexOf(needle);
  if (at < 0) return undefined;
  const range = document.createRange();
  let offset = 0;
  let started = false;
  for (const node of nodes) {
    const end = offset + node.data.length;
    if (!started && at < end) {
      range.setStart(node, at - offset);
      started = true;
    }
    if (started && at + needle.length <= end) {
      range.setEnd(node, at + needle.length - offset);
      return range;
    }
    offset = end;
  }
  return undefined;
}

/**
 * Highlights `query` inside `target` and scrolls `scroller` (vertically only: a code block must not
 * be pushed sideways) so the match, or else the target, sits in the middle.
 */
export function highlightMatch(target: HTMLElement, query: string, scroller: HTMLElement): void {
  const highlights = api();
  highlights?.delete(NAME);
  const range = findTextRange(target, query);
  if (range && highlights) highlights.set(NAME, new Highlight(range));
  const box = (range ?? target).getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  scroller.scrollTop += box.top - view.top - Math.max(0, (scroller.clientHeight - box.height) / 2);
}

export function clearSearchHighlight(): void {
  api()?.delete(NAME);
}
