// Where an answer's text mentions one of its resolved references ("see retry.ts:12", "src/a.ts:3-5",
// "analysis.ipynb#cell=3:2", "design.pdf#page=18:3"), so the views can make the mention itself a link,
// not only the References list below it. The mentions are found by the one grammar (mentionGrammar.ts);
// only those that name a reference the loop resolved become links (the view opens it by index, never by
// a path from the text). No `vscode` or DOM import.

import { findMentions, mentionPath } from './mentionGrammar';
import type { Mention } from './mentionGrammar';
import type { ReferenceLike } from './referenceLabel';

type MentionPart = { kind: 'text'; text: string } | { kind: 'mention'; text: string; index: number };

function sameFile(mentioned: string, path: string): boolean {
  const m = mentionPath(mentioned);
  const p = path.replace(/\\/g, '/');
  return p === m || p.endsWith(`/${m}`) || m.endsWith(`/${p}`);
}

/** The reference a mention names (-1 for none): same file (or a tail of its path), same cell or page, same lines. */
function referenceFor(references: readonly ReferenceLike[], mention: Mention): number {
  const { anchor } = mention;
  if (anchor?.kind === 'cell') {
    return references.findIndex((r) => {
      const c = r.notebookCell;
      if (!c || c.cell !== anchor.cell || c.endCell !== anchor.endCell || !sameFile(mention.path, r.path)) return false;
      return c.line === anchor.line && (anchor.endLine === undefined ? c.endLine === undefined : (c.endLine ?? c.line) === anchor.endLine);
    });
  }
  // A PDF's page is recorded by its page key, the page as a whole at its line 1.
  const [path, line, endLine] = anchor?.kind === 'page' ? [`${mention.path}#page=${anchor.page}`, anchor.line ?? 1, anchor.endLine] : [mention.path, mention.line, mention.endLine];
  if (line === undefined) return -1;
  return references.findIndex((r) => r.line === line && (endLine === undefined || (r.endLine ?? r.line) === endLine) && sameFile(path, r.path));
}

/** `text` cut into plain pieces and mentions of `references` (by index). */
export function splitMentions(text: string, references: readonly ReferenceLike[]): MentionPart[] {
  if (references.length === 0) return [{ kind: 'text', text }];
  const parts: MentionPart[] = [];
  let at = 0;
  for (const mention of findMentions(text)) {
    const index = referenceFor(references, mention);
    if (index < 0) continue;
    if (mention.start > at) parts.push({ kind: 'text', text: text.slice(at, mention.start) });
    parts.push({ kind: 'mention', text: text.slice(mention.start, mention.end), index });
    at = mention.end;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}
