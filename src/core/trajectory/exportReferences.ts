// The answer's references as the exports list them, in the input's own terms: `src/a.ts:12-14`, or a
// notebook's cell, `analysis.ipynb#cell=3:2`. Paths and cited text come from the record (hostile):
// escaped as Markdown text, the text cut to one line.
import { referenceLabel } from '../../shared/text/referenceLabel';
import { markdownText } from '../../shared/text/untrustedText';
import type { RunNode } from './treeTypes';

const SHOWN_TEXT_CHARS = 160;

/** Markdown lines (a heading's worth of list items), or none when the run has no references. */
export function referenceListLines(run: RunNode): string[] {
  const refs = run.references ?? [];
  if (refs.length === 0) return [];
  return refs.map((r) => {
    const text = r.text.replace(/\s+/g, ' ').trim();
    const shown = text.length > SHOWN_TEXT_CHARS ? `${text.slice(0, SHOWN_TEXT_CHARS)}…` : text;
    return `- ${markdownText(referenceLabel(r))}${shown ? ` — ${markdownText(shown)}` : ''}`;
  });
}
