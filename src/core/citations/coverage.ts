// Which parts of the input a run touched, for the coverage strip beside the answer. A line of the
// input counts as seen when it appeared whole in a cell's output (printed slices, peeks, search hits)
// or in a sub-call's prompt, and as cited when a reference points at it. Seen text is reduced to line
// hashes as the run goes (nothing is kept), and the input is scanned once at the end, as bytes.
// Whole-line matching misses a line that was only ever shown cut, and counts a line shown from
// elsewhere with the same text: it is an estimate, and is labelled so.
import type { Reference } from '../trajectory/events';

interface CoverageBucket {
  /** Lines of the input in this bucket that can be matched (8+ characters once trimmed). */
  lines: number;
  cell: number;
  subcall: number;
  cited: number;
}

export interface CoverageRecord {
  totalLines: number;
  /** The input in order (files one after another), cut into equal runs of lines. */
  buckets: CoverageBucket[];
  /** Where each file starts (1-based line of the whole input); at most FILES_LISTED are listed. */
  files: Array<{ path: string; firstLine: number; lines: number }>;
  seenLines: number;
  citedLines: number;
}

const MIN_LINE_CHARS = 8;
const BUCKETS = 120;
const FILES_LISTED = 500;
const encoder = new TextEncoder();
const COUNTABLE = 1;
const CELL = 2;
const SUBCALL = 4;
const CITED = 8;

/** FNV-1a over bytes [start, end), after the same normalisation on both sides (see normalizedRange). */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) {
    h ^= bytes[i]!;
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const isSpace = (b: number): boolean => b === 0x20 || b === 0x09 || b === 0x0d || b === 0x0b || b === 0x0c;
const isDigit = (b: number): boolean => b >= 0x30 && b <= 0x39;

/** Trimmed, and without a leading line number (`3001 `, `3001: `, `3001|`), as outputs often print them. */
function normalizedRange(bytes: Uint8Array, start: number, end: number): [number, number] {
  while (start < end && isSpace(bytes[start]!)) start++;
  while (end > start && isSpace(bytes[end - 1]!)) end--;
  let i = start;
  while (i < end && isDigit(bytes[i]!)) i++;
  if (i > start && i < end && (bytes[i] === 0x3a || bytes[i] === 0x7c || isSpace(bytes[i]!))) {
    i++;
    while (i < end && isSpace(bytes[i]!)) i++;
    start = i;
  }
  return [start, end];
}

export class CoverageTracker {
  private readonly cell = new Set<number>();
  private readonly subcall = new Set<number>();

  noteCellOutput(text: string): void {
    addPieces(this.cell, text);
  }

  noteSubCallPrompt(text: string): void {
    addPieces(this.subcall, text);
  }

  /** Scans the input once; `files` in the order bound, each read as bytes or text. */
  async compute(files: Array<{ path: string; read(): Promise<Uint8Array | string | undefined> }>, references: Reference[]): Promise<CoverageRecord> {
    const cited = new Map<string, Array<[number, number]>>();
    for (const ref of references) cited.set(ref.path, [...(cited.get(ref.path) ?? []), [ref.line, ref.endLine ?? ref.line]]);
    // One byte of flags per line of the input (COUNTABLE | CELL | SUBCALL | CITED): 5M lines take 5 MB.
    let flags = new Uint8Array(1 << 16);
    let total = 0;
    const listed: CoverageRecord['files'] = [];
    let seenLines = 0;
    let citedLines = 0;
    for (const file of files) {
      const content = await file.read();
      if (content === undefined) continue;
      const bytes = typeof content === 'string' ? encoder.encode(content) : content;
      const firstLine = total + 1;
      const ranges = cited.get(file.path) ?? [];
      let start = 0;
      let line = 0;
      while (start < bytes.length) {
        let end = bytes.indexOf(0x0a, start);
        if (end < 0) end = bytes.length;
        line += 1;
        const [a, b] = normalizedRange(bytes, start, end);
        const countable = b - a >= MIN_LINE_CHARS;
        const hash = countable ? hashBytes(bytes, a, b) : 0;
        const flag = (countable ? COUNTABLE : 0) | (countable && this.cell.has(hash) ? CELL : 0) | (countable && this.subcall.has(hash) ? SUBCALL : 0) | (ranges.some(([from, to]) => line >= from && line <= to) ? CITED : 0);
        if (flag & (CELL | SUBCALL)) seenLines++;
        if (flag & CITED) citedLines++;
        if (total === flags.length) {
          const grown = new Uint8Array(flags.length * 2);
          grown.set(flags);
          flags = grown;
        }
        flags[total++] = flag;
        start = end + 1;
      }
      if (listed.length < FILES_LISTED) listed.push({ path: file.path, firstLine, lines: line });
    }
    const count = Math.min(BUCKETS, Math.max(1, total));
    const buckets: CoverageBucket[] = Array.from({ length: count }, () => ({ lines: 0, cell: 0, subcall: 0, cited: 0 }));
    for (let i = 0; i < total; i++) {
      const flag = flags[i]!;
      const bucket = buckets[Math.min(count - 1, Math.floor((i * count) / total))]!;
      if (flag & (COUNTABLE | CITED)) bucket.lines++;
      if (flag & CELL) bucket.cell++;
      if (flag & SUBCALL) bucket.subcall++;
      if (flag & CITED) bucket.cited++;
    }
    return { totalLines: total, buckets, files: listed, seenLines, citedLines };
  }
}

/**
 * Every line of `text`, and the pieces between quotes and escaped newlines (a printed list or dict
 * shows the input's lines inside quotes, joined by `\n`).
 */
function addPieces(into: Set<number>, text: string): void {
  const add = (piece: string): void => {
    const bytes = encoder.encode(piece);
    const [a, b] = normalizedRange(bytes, 0, bytes.length);
    if (b - a >= MIN_LINE_CHARS) into.add(hashBytes(bytes, a, b));
  };
  for (const line of text.split('\n')) {
    add(line);
    if (/['"]|\\n/.test(line)) for (const piece of line.split(/\\n|['"]/)) add(piece);
  }
}
