// How a PDF's pages are named in `context` and in references: `design.pdf#page=18` (the fragment PDF
// viewers open at), with a line within the page after it (`design.pdf#page=18:3`). And the pages
// without text, said in a constant-size form ("3, 7–9, and 12 more pages").

/** True when the name says PDF (the content is checked when read). */
export function isPdfPath(path: string): boolean {
  return /\.pdf$/i.test(path);
}

/** The key of a page in `context` and the path of its references. */
export function pdfPageKey(path: string, page: number): string {
  return `${path}#page=${page}`;
}

const PAGE_KEY = /^(.+\.pdf)#page=(\d{1,7})$/i;

/** The PDF and page a reference path names, or undefined when it names no page of a PDF. */
export function parsePdfPageKey(path: string): { file: string; page: number } | undefined {
  const match = PAGE_KEY.exec(path);
  if (!match) return undefined;
  const page = Number(match[2]);
  return page >= 1 ? { file: match[1]!, page } : undefined;
}

/** At most this many ranges are listed; the rest are counted. */
const PAGE_RANGES_MAX = 20;

/**
 * Sorted page numbers as ranges, "3, 7–9", at most PAGE_RANGES_MAX of them, then "and N more pages":
 * the metadata stays the same size whatever the document.
 */
export function describePageRanges(pages: readonly number[]): string {
  const sorted = [...new Set(pages)].filter((p) => Number.isInteger(p) && p > 0).sort((a, b) => a - b);
  const ranges: Array<[number, number]> = [];
  for (const page of sorted) {
    const last = ranges[ranges.length - 1];
    if (last && page === last[1] + 1) last[1] = page;
    else ranges.push([page, page]);
  }
  const shown = ranges.slice(0, PAGE_RANGES_MAX).map(([a, b]) => (a === b ? String(a) : `${a}–${b}`));
  const rest = ranges.slice(PAGE_RANGES_MAX).reduce((n, [a, b]) => n + (b - a + 1), 0);
  return shown.join(', ') + (rest > 0 ? `, and ${rest} more page${rest === 1 ? '' : 's'}` : '');
}
