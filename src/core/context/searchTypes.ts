// What search() over a lazy folder hands back to Python, whichever engine ran it.

/** Python's shape of a hit: path, 1-based line, start (characters into the file) and the line, clipped. */
export interface SearchHit {
  path: string;
  line: number;
  start: number;
  text: string;
}

/**
 * `changed`: listed files that were still regular files inside the folder but whose bytes were no longer
 * what the search read (rewritten, truncated, grown past the size limit, or deleted while searched):
 * their hits are left out, and Python says so. A file that became a link, a FIFO or a device, or leads
 * out of the folder, refuses the whole search instead (SearchRefusedFileError). `unreadable`: files that
 * cannot be read as text at all (an encrypted or damaged PDF in the folder), each with the sentence why.
 */
export type SearchOutcome = { hits: SearchHit[]; truncated: boolean; engine: 'ripgrep' | 'javascript'; changed: string[]; unreadable?: Array<{ path: string; detail: string }> } | { fallback: string };
