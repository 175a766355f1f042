// How an answer's prose mentions a place in the input, the one grammar behind every surface that turns
// such mentions into links (the trajectory view and the sidebar through answerMentions.ts, `@rlm`
// through answerAnchors.ts): a path (`src/a.ts`, `src\a.ts`, `src/Makefile`), optionally in backticks,
// then a line (`:12`, `:3-5`, `#L3-L9`), a notebook's cell (`#cell=3:2`, `#cell=4-6`) or a PDF's page
// (`#page=18:3`). What a mention names is each surface's to decide; this finds them. No `vscode` or DOM
// import.

/** A notebook's cell (`#cell=3:2`, `#cell=3:2-4`, `#cell=3`, `#cell=3-5`) or a PDF's page (`#page=18`, `#page=18:3`). */
export type MentionAnchor = { kind: 'cell'; cell: number; endCell?: number; line?: number; endLine?: number } | { kind: 'page'; page: number; line?: number; endLine?: number };

export interface Mention {
  /** Where the mention starts and ends in the text, its backticks included. */
  start: number;
  end: number;
  /** As written, without its backticks. */
  text: string;
  path: string;
  line?: number;
  endLine?: number;
  anchor?: MentionAnchor;
}

// A mention starts only where a run of path characters starts (the lookbehind): tried at every position
// inside a long run (a model's answer of 40,000 letters), the path's backtracking made this quadratic
// and held the extension host for seconds, for minutes on a megabyte. A path has a folder or an
// extension, so a time (`10:12`) or a word before a colon is not one; it ends on a letter or digit, so
// the full stop after it is not part of it. Each folder segment holds no separator, so the segments
// split one way only.
// 1: a backtick, 2: the path; then 3-7: `#cell=`/`#page=` with its number, a later cell, a line and an
// end line; or 8-9: `:line` / `#Lline` and an end line.
const MENTION =
  /(`?)(?<![\w.@/\\-])((?:[\w.@-]+[\\/])+[\w@-](?:[\w.@-]*[\w@-])?|[\w@-][\w.@-]*\.[A-Za-z0-9]+)(?:#(cell|page)=(\d{1,7})(?:-(\d{1,7}))?(?::(\d{1,9})(?:-(\d{1,9}))?)?(?![\d:])|(?::|#L)(\d{1,9})(?:-L?(\d{1,9}))?(?!\d))?\1/g;

/** Every mention in `text`, in order; numbers of 0 and ends before their starts are dropped, not guessed at. */
export function findMentions(text: string): Mention[] {
  const found: Mention[] = [];
  for (const match of text.matchAll(MENTION)) {
    const start = match.index ?? 0;
    const base = { start, end: start + match[0].length, text: match[0].replace(/^`|`$/g, ''), path: match[2]! };
    if (match[3] !== undefined) {
      found.push({ ...base, anchor: anchorOf(match[3], match.slice(4, 8)) });
      continue;
    }
    const line = whole(match[8]);
    const endLine = line !== undefined ? whole(match[9]) : undefined;
    found.push({ ...base, ...(line !== undefined ? { line } : {}), ...(endLine !== undefined && line !== undefined && endLine > line ? { endLine } : {}) });
  }
  return found;
}

function whole(v: string | undefined): number | undefined {
  return v !== undefined && Number(v) >= 1 ? Number(v) : undefined;
}

function anchorOf(kind: string, [n, endN, line, endLine]: Array<string | undefined>): MentionAnchor {
  const first = whole(n) ?? 1;
  const at = whole(line);
  const to = at !== undefined ? whole(endLine) : undefined;
  const lines = { ...(at !== undefined ? { line: at } : {}), ...(to !== undefined && at !== undefined && to > at ? { endLine: to } : {}) };
  if (kind === 'page') return { kind: 'page', page: first, ...lines };
  const last = whole(endN);
  return { kind: 'cell', cell: first, ...(last !== undefined && last > first ? { endCell: last } : {}), ...lines };
}

/** The path of a mention as the input's paths are written: forward slashes, no leading `./`. */
export function mentionPath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^\.\//, '');
}
