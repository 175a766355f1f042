// Finds `path:line` and `path:start-end` citations in an answer (also `path#L12-L20`, and a column
// after the line, `path:12:5`, which is dropped), and a notebook's cells (`x.ipynb#cell=3:2`). A PDF's
// page is part of its path, `design.pdf#page=18` (the key of that page in `context`): cited with a line
// within the page (`design.pdf#page=18:3`) or alone, which cites the page from its first line. Only the
// syntax is checked here; whether the path
// and line exist is for citationResolve.ts.

export interface Citation {
  /** The citation as written in the answer. */
  raw: string;
  path: string;
  line: number;
  endLine?: number;
  /**
   * Written in a notebook's terms (`analysis.ipynb#cell=3:2`, `#cell=3:2-5`, `#cell=3`): the cell and its
   * source lines. `line`/`endLine` then hold the source lines as written (1 for a whole cell) until the
   * resolver maps them onto the notebook's text form.
   */
  cell?: { cell: number; line?: number; endLine?: number };
  /** A PDF page cited alone (`design.pdf#page=5`): `line` is then 1 for the page, not a line written. */
  wholePage?: true;
}

/** An answer citing more than this is clipped: the rest are not resolved. */
const MAX_CITATIONS = 200;

// A path is a run of path characters not preceded by one (so the host of `http://host:80` is not
// taken: it follows `/`), then `:N` or `#LN`, then an optional `-M`, `–M` or `-LM`.
const CITATION = /(?<![\w/.~@+:\\-])(\/?[\w@~+][\w./@~+-]*(?:#page=\d{1,7})?)(?::|#L)(\d{1,9})(?:\s?[-–]\s?L?(\d{1,9}))?(?![\w])/g;
/** A PDF page cited without a line (one with a line is a CITATION). */
const PAGE_CITATION = /(?<![\w/.~@+:\\-])(\/?[\w@~+][\w./@~+-]*\.pdf#page=\d{1,7})(?![\w:=#])/gi;
/** A notebook's cell: `x.ipynb#cell=3`, `x.ipynb#cell=3:2`, `x.ipynb#cell=3:2-5`. */
const CELL_CITATION = /(?<![\w/.~@+:\\-])(\/?[\w@~+][\w./@~+-]*\.ipynb)#cell=(\d{1,6})(?::(\d{1,9})(?:\s?[-–]\s?(\d{1,9}))?)?(?![\w])/gi;

/**
 * The citations of `text`, in order, without repeats. A candidate counts when its path looks like one
 * (has a `.` or `/`) or is a name the context answers to (`known`, e.g. `context` or a file's name),
 * so times (`10:30`) and ratios are not taken for citations.
 */
export function findCitations(text: string, known: (path: string) => boolean): Citation[] {
  const found: Array<Citation & { at: number }> = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(CELL_CITATION)) {
    const [raw, path, cellText, start, end] = match;
    if (!path || !cellText) continue;
    const cell = Number(cellText);
    const line = start !== undefined ? Number(start) : undefined;
    const endLine = end !== undefined && line !== undefined && Number(end) !== line ? Number(end) : undefined;
    const key = `${path}#${cell}\n${line ?? ''}\n${endLine ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    found.push({ at: match.index ?? 0, raw, path, line: line ?? 1, ...(endLine !== undefined ? { endLine } : {}), cell: { cell, ...(line !== undefined ? { line } : {}), ...(endLine !== undefined ? { endLine } : {}) } });
    if (found.length >= MAX_CITATIONS) break;
  }
  // Lines and PDF pages, in the order they are written.
  const matches = [...text.matchAll(CITATION), ...[...text.matchAll(PAGE_CITATION)].map((m) => Object.assign([m[0], m[1], '1', undefined], { index: m.index, wholePage: true as const }))].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
  for (const match of matches) {
    if (found.length >= MAX_CITATIONS) break;
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
    found.push({ at: match.index ?? 0, raw, path, line, ...(endLine !== undefined && endLine !== line ? { endLine } : {}), ...('wholePage' in match ? { wholePage: true as const } : {}) });
  }
  // In the order of the answer, whichever form each is written in.
  return found.sort((a, b) => a.at - b.at).map(({ at: _at, ...citation }) => citation);
}
