// Where an answer's text mentions one of its resolved references ("see retry.ts:12", "src/a.ts:3-5"),
// so the views can make the mention itself a link, not only the References list below it. Only
// mentions that name a reference the loop resolved become links (the view opens it by index, never by a
// path from the text). No `vscode` or DOM import.

import type { ReferenceLike } from './referenceLabel';

type MentionPart = { kind: 'text'; text: string } | { kind: 'mention'; text: string; index: number };

/** Paths written with the characters file names use, then `:line` or `:line-end`. */
const MENTION = /(?<![\w./\\-])([\w.\\/-]*[\w-]\.[\w]+|[\w.\\/-]+\/[\w.-]+):(\d+)(?:-(\d+))?(?!\d)|(?<![\w./\\-])([\w.\\/-]*\.ipynb)#cell=(\d+)(?::(\d+)(?:-(\d+))?)?(?![\d:])/g;

function sameFile(mentioned: string, path: string): boolean {
  const m = mentioned.replace(/\\/g, '/').replace(/^\.\//, '');
  const p = path.replace(/\\/g, '/');
  return p === m || p.endsWith(`/${m}`) || m.endsWith(`/${p}`);
}

/** The reference a mention names: same file (or a tail of its path), same first line, and same last line when given. */
function referenceFor(references: readonly ReferenceLike[], path: string, line: number, endLine: number | undefined): number {
  return references.findIndex((r) => r.line === line && (endLine === undefined || (r.endLine ?? r.line) === endLine) && sameFile(path, r.path));
}

/** The reference a notebook mention (`x.ipynb#cell=3:2`) names: same file, same cell, same source lines. */
function cellReferenceFor(references: readonly ReferenceLike[], path: string, cell: number, line: number | undefined, endLine: number | undefined): number {
  return references.findIndex((r) => {
    const c = r.notebookCell;
    if (!c || c.cell !== cell || c.endCell !== undefined || !sameFile(path, r.path)) return false;
    return c.line === line && (endLine === undefined ? c.endLine === undefined : (c.endLine ?? c.line) === endLine);
  });
}

/** `text` cut into plain pieces and mentions of `references` (by index). */
export function splitMentions(text: string, references: readonly ReferenceLike[]): MentionPart[] {
  if (references.length === 0) return [{ kind: 'text', text }];
  const parts: MentionPart[] = [];
  let at = 0;
  for (const match of text.matchAll(MENTION)) {
    const num = (v: string | undefined): number | undefined => (v !== undefined ? Number(v) : undefined);
    const index = match[4] !== undefined ? cellReferenceFor(references, match[4], Number(match[5]), num(match[6]), num(match[7])) : referenceFor(references, match[1]!, Number(match[2]), num(match[3]));
    if (index < 0) continue;
    const start = match.index ?? 0;
    if (start > at) parts.push({ kind: 'text', text: text.slice(at, start) });
    parts.push({ kind: 'mention', text: match[0], index });
    at = start + match[0].length;
  }
  if (at < text.length) parts.push({ kind: 'text', text: text.slice(at) });
  return parts;
}
