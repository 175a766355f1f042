// Turns the answer's `path:line` mentions of its resolved references into links, after the Markdown is
// rendered: text nodes only (never inside code blocks or existing links), each link opening the
// reference by index through `open`, like the References list under the answer.
import { splitMentions } from '../../src/shared/text/answerMentions';

import type { ReferenceLike } from '../../src/shared/text/referenceLabel';

export function linkMentions(root: HTMLElement, references: readonly ReferenceLike[], open: (index: number) => void): void {
  if (references.length === 0) return;
  const doc = root.ownerDocument;
  const walker = doc.createTreeWalker(root, 4 /* NodeFilter.SHOW_TEXT */);
  const nodes: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    // A code block shows code; an existing link already goes somewhere.
    if ((node.parentElement?.closest('pre, a') ?? null) === null) nodes.push(node as Text);
  }
  for (const node of nodes) {
    const parts = splitMentions(node.data, references);
    if (!parts.some((p) => p.kind === 'mention')) continue;
    const fragment = doc.createDocumentFragment();
    for (const part of parts) {
      if (part.kind === 'text') {
        fragment.appendChild(doc.createTextNode(part.text));
        continue;
      }
      const link = doc.createElement('a');
      link.className = 'reference-link mention-link';
      link.href = '#';
      link.textContent = part.text;
      link.title = `Open ${part.text}`;
      link.dataset.reference = String(part.index);
      link.addEventListener('click', (event) => {
        event.preventDefault();
        open(part.index);
      });
      fragment.appendChild(link);
    }
    node.replaceWith(fragment);
  }
}
