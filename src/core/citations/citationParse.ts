// Finds `path:line` and `path:start-end` citations in an answer (also `path#L12-L20`, and a column
// after the line, `path:12:5`, which is dropped). A PDF's page is part of its path, `design.pdf#page=18`
// (the key of that page in `context`): cited with a line within the page (`design.pdf#page=18:3`) or
// alone, which cites the page from its first line. Only the syntax is checked here; whether the path
// and line exist is for citationResolve.ts.

export interface Citation {
  /** The citation as written in the answer. */
  raw: string;
  path: string;
  line: number;
  endLine?: number;
}

/** An answer citing more than this is clipped: the rest are not resolved. */
const MAX_CITATIONS = 200;

// A path is a run of path characters not preceded by one (so the host of `http://host:80` is not
// taken: it follows `/`), then `:N` or `#LN`, then an optional `-M`, `–M` or `-LM`.
const CITATION = /(?<![\w/.~@+:\\-])(\/?[\w@~+][\w./@~+-]*(?:#page=\d{1,7})?)(?::|#L)(\d{1,9})(?:\s?[-–]\s?L?(\d{1,9}))?(?![\w])/g;
/** A PDF page cited without a line (one with a line is a CITATION). */
const PAGE_CITATION = /(?<![\w/.~@+:\\-])(\/?[\w@~+][\w./@~+-]*\.pdf#page=\d{1,7})(?![\w:=#])/gi;

/**
 * The citations of `text`, in order, without repeats. A candidate counts when its path looks like one
 * (has a `.` or `/`) or is a name the context answers to (`known`, e.g. `context` or a file's name),
 * so times (`10:30`) and ratios are not taken for citations.
 */
export function findCitations(text: string, known: (path: string) => boolean): Citation[] {
  const found: Citation[] = [];
  const seen = new Set<string>();
  // Both kinds, in the order they are written.
  const matches = [...text.matchAll(CITATION), ...[...text.matchAll(PAGE_CITATION)].map((m) => Object.assign([m[0], m[1], '1', undefined], { index: m.index }))].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  for (const match of matches) {
    const [raw, rawPath, start, end] = match;
    if (!raw || !rawPath || !start) continue;
    // A sentence ending with the path (`see a.ts.`) or a trailing separator is not part of it.
    const path = rawPath.replace(/[./]+$/, '') || rawPath;
    if (!known(path) && !/[./]/.test(path)) continue;
    if (/^\d+(\.\d+)*$/.test(path)) continue;
    const line = Number(start);
    const endLine = end !== undefined ? Number(end) : undefined;
    const key = `${path}\n${line}\n${endLine ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    found.push({ raw, path, line, ...(endLine !== undefined && endLine !== line ? { endLine } : {}) });
    if (found.length >= MAX_CITATIONS) break;
  }
  return found;
}
