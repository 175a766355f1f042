// Which parts of the input a run touched, for the coverage strip beside the answer. A line of the
// input counts as seen when it appeared whole in a cell's output (printed slices, peeks, search hits)
// or in a sub-call's prompt, and as cited when a reference points at it. Seen text is reduced to line
// hashes as the run goes (nothing is kept), and the input is streamed once at the end, as bytes.
// A line cut in two by chunking (a slice of characters ends mid-line, the next starts there) is seen
// when its two halves were: the end of one piece and the start of another that join into it. A line cut
// into three or more pieces is missed, and a line shown from elsewhere with the same text counts: it is
// an estimate, and is labelled so. Lines under 8 characters (blank lines, braces) are not counted at all.
import type { CoverageRecord, Reference } from '../trajectory/events';
import { LineSplitter } from './lineSplitter';

/** One run of input lines: how many can be matched (8+ characters once trimmed), seen by cells, by sub-calls, cited. */
type CoverageBucket = CoverageRecord['buckets'][number];


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

/** One file of the input, streamed (false: missing or unreadable, and then left out). */
export interface CoverageFile {
  path: string;
  scan(onChunk: (bytes: Uint8Array) => void): Promise<boolean>;
}

interface FileFlags {
  path: string;
  flags: Uint8Array;
  lines: number;
  seen: number;
  cited: number;
}

/** Lines longer than this are not tried as two joined halves (each split point costs a hash). */
const MAX_JOINED_LINE = 4096;

/** Files scanned at once: a folder of 20,000 small files is bound by opening files, not by hashing. */
const SCAN_CONCURRENCY = 16;

export class CoverageTracker {
  private readonly cell = new PieceSet();
  private readonly subcall = new PieceSet();

  noteCellOutput(text: string): void {
    addPieces(this.cell, text);
  }

  noteSubCallPrompt(text: string): void {
    addPieces(this.subcall, text);
  }

  /**
   * Scans the input once, streamed (no file is held whole), a few files at a time; the lines keep
   * the order of `files`. Lines are hashed only when a seen piece has their length.
   */
  async compute(files: CoverageFile[], references: Reference[]): Promise<CoverageRecord> {
    const cited = new Map<string, Array<[number, number]>>();
    for (const ref of references) {
      const ranges = cited.get(ref.path) ?? [];
      ranges.push([ref.line, ref.endLine ?? ref.line]);
      cited.set(ref.path, ranges);
    }
    const scanned: Array<FileFlags | undefined> = new Array(files.length);
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < files.length) {
        const index = next++;
        const file = files[index]!;
        scanned[index] = await this.scanFile(file, cited.get(file.path) ?? []);
      }
    };
    await Promise.all(Array.from({ length: Math.min(SCAN_CONCURRENCY, files.length) }, worker));
    const present = scanned.filter((file): file is FileFlags => file !== undefined);
    const total = present.reduce((n, file) => n + file.lines, 0);
    const count = Math.min(BUCKETS, Math.max(1, total));
    const buckets: CoverageBucket[] = Array.from({ length: count }, () => ({ lines: 0, cell: 0, subcall: 0, cited: 0 }));
    const listed: CoverageRecord['files'] = [];
    let at = 0;
    for (const file of present) {
      if (listed.length < FILES_LISTED) listed.push({ path: file.path, firstLine: at + 1, lines: file.lines });
      for (let i = 0; i < file.lines; i++, at++) {
        const flag = file.flags[i]!;
        if (flag === 0) continue;
        const bucket = buckets[Math.min(count - 1, Math.floor((at * count) / total))]!;
        if (flag & (COUNTABLE | CITED)) bucket.lines++;
        if (flag & CELL) bucket.cell++;
        if (flag & SUBCALL) bucket.subcall++;
        if (flag & CITED) bucket.cited++;
      }
    }
    const seenLines = present.reduce((n, file) => n + file.seen, 0);
    const citedLines = present.reduce((n, file) => n + file.cited, 0);
    return { totalLines: total, buckets, files: listed, seenLines, citedLines };
  }

  /** One byte of flags per line (COUNTABLE | CELL | SUBCALL | CITED): 5M lines take 5 MB. */
  private async scanFile(file: CoverageFile, ranges: Array<[number, number]>): Promise<FileFlags | undefined> {
    const result: FileFlags = { path: file.path, flags: new Uint8Array(64), lines: 0, seen: 0, cited: 0 };
    const { cell, subcall } = this;
    const isCited = citedCursor(ranges);
    const splitter = new LineSplitter((bytes, start, end, cut) => {
      const line = ++result.lines;
      let flag = 0;
      if (cut) flag = COUNTABLE;
      else {
        const [a, b] = normalizedRange(bytes, start, end);
        if (b - a >= MIN_LINE_CHARS) {
          flag = COUNTABLE;
          const length = b - a;
          if (cell.mayHold(length) || subcall.mayHold(length)) {
            const hash = hashBytes(bytes, a, b);
            if (cell.has(length, hash)) flag |= CELL;
            if (subcall.has(length, hash)) flag |= SUBCALL;
          }
          if (!(flag & CELL) && cell.joins(bytes, a, b)) flag |= CELL;
          if (!(flag & SUBCALL) && subcall.joins(bytes, a, b)) flag |= SUBCALL;
        }
      }
      if (isCited(line)) flag |= CITED;
      if (flag & (CELL | SUBCALL)) result.seen++;
      if (flag & CITED) result.cited++;
      if (line > result.flags.length) {
        const grown = new Uint8Array(result.flags.length * 2);
        grown.set(result.flags);
        result.flags = grown;
      }
      result.flags[line - 1] = flag;
    });
    if (!(await file.scan((chunk) => splitter.push(chunk)))) return undefined;
    splitter.end();
    return result;
  }
}

/**
 * Whether each line is cited, asked for lines in increasing order: the ranges are sorted once and
 * walked with the lines, so a file cited in thousands of places costs no more per line than one.
 */
function citedCursor(ranges: Array<[number, number]>): (line: number) => boolean {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  let next = 0;
  let coveredTo = 0;
  return (line) => {
    while (next < sorted.length && sorted[next]![0] <= line) coveredTo = Math.max(coveredTo, sorted[next++]![1]);
    return line <= coveredTo;
  };
}

/**
 * Hashes of seen pieces, keyed by their length too: most lines of an input have a length no seen piece
 * has, and are then not hashed at all (a run that printed nothing costs one pass for newlines).
 */
class PieceSet {
  private readonly byLength = new Map<number, Set<number>>();
  private readonly shortLengths = new Uint8Array(1 << 16);
  /** Pieces that may be the start of a cut line (a text's last line: left-normalised only). */
  readonly heads = new HalfSet();
  /** Pieces that may be the end of a cut line (a text's first line: right-trimmed only). */
  readonly tails = new HalfSet();

  /** True when the line [a, b) is a head piece followed by a tail piece (a line cut in two by chunking). */
  joins(bytes: Uint8Array, a: number, b: number): boolean {
    const length = b - a;
    if (length > MAX_JOINED_LINE || this.heads.empty || this.tails.empty) return false;
    for (let k = 1; k < length; k++) {
      if (!this.heads.mayHold(k) || !this.tails.mayHold(length - k)) continue;
      if (this.heads.has(k, hashBytes(bytes, a, a + k)) && this.tails.has(length - k, hashBytes(bytes, a + k, b))) return true;
    }
    return false;
  }

  add(length: number, hash: number): void {
    const hashes = this.byLength.get(length) ?? new Set<number>();
    hashes.add(hash);
    this.byLength.set(length, hashes);
    if (length < this.shortLengths.length) this.shortLengths[length] = 1;
  }

  mayHold(length: number): boolean {
    return length < this.shortLengths.length ? this.shortLengths[length] === 1 : this.byLength.has(length);
  }

  has(length: number, hash: number): boolean {
    return this.byLength.get(length)?.has(hash) ?? false;
  }
}

/** Hashes of the halves of cut lines, by length; any length counts (a cut can leave one character). */
class HalfSet {
  private readonly byLength = new Map<number, Set<number>>();

  get empty(): boolean {
    return this.byLength.size === 0;
  }

  add(length: number, hash: number): void {
    const hashes = this.byLength.get(length) ?? new Set<number>();
    hashes.add(hash);
    this.byLength.set(length, hashes);
  }

  mayHold(length: number): boolean {
    return this.byLength.has(length);
  }

  has(length: number, hash: number): boolean {
    return this.byLength.get(length)?.has(hash) ?? false;
  }
}

/**
 * Each line of `text` as a half of an input line a slice of characters may have cut: a chunk's last
 * line may be the start of a line (normalised on the left as input lines are), its first line the end
 * of one (trimmed on the right). Where a chunk sits in a prompt is not known ("Summarise:\n" + chunk),
 * so every line is kept as both.
 */
function addHalves(into: PieceSet, text: string): void {
  for (const line of text.split('\n')) {
    const bytes = encoder.encode(line);
    const [a, b] = normalizedRange(bytes, 0, bytes.length);
    let end = bytes.length;
    while (end > a && bytes[end - 1] === 0x0d) end--;
    if (end > a) into.heads.add(end - a, hashBytes(bytes, a, end));
    if (b > 0) into.tails.add(b, hashBytes(bytes, 0, b));
  }
}

/**
 * Every line of `text`, and the pieces between quotes and escaped newlines (a printed list or dict
 * shows the input's lines inside quotes, joined by `\n`).
 */
function addPieces(into: PieceSet, text: string): void {
  const add = (piece: string): void => {
    const bytes = encoder.encode(piece);
    const [a, b] = normalizedRange(bytes, 0, bytes.length);
    if (b - a >= MIN_LINE_CHARS) into.add(b - a, hashBytes(bytes, a, b));
  };
  for (const line of text.split('\n')) {
    add(line);
    if (/['"]|\\n/.test(line)) for (const piece of line.split(/\\n|['"]/)) add(piece);
  }
  addHalves(into, text);
}
