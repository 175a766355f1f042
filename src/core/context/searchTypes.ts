// What search() over a lazy folder hands back to Python, whichever engine ran it.

/** Python's shape of a hit: path, 1-based line, start (characters into the file) and the line, clipped. */
export interface SearchHit {
  path: string;
  line: number;
  start: number;
  text: string;
}

export type SearchOutcome = { hits: SearchHit[]; truncated: boolean; engine: 'ripgrep' | 'javascript' } | { fallback: string };
