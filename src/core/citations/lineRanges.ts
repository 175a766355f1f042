// The text of some line ranges of one file, from a single streamed pass over its bytes: a citation
// of line 2,000,000 of a 2 GB log costs one chunk of memory, and only the cited lines are decoded.
import { LineSplitter } from './lineSplitter';

export interface LineRange {
  /** 1-based, inclusive. */
  from: number;
  to: number;
}

type RangeText = { kind: 'ok'; text: string } | { kind: 'short'; lines: number };

const decoder = new TextDecoder('utf-8');

/**
 * One result per range, in order: its lines joined by `\n` (a CR before a newline dropped), clipped to
 * `maxChars` with `…` after; or 'short' with the file's line count when the range runs past the end.
 * Undefined when `scan` could not read the file.
 */
export async function textOfRanges(scan: (onChunk: (bytes: Uint8Array) => void) => Promise<boolean>, ranges: LineRange[], maxChars: number): Promise<RangeText[] | undefined> {
  const texts = ranges.map(() => '');
  // Enough bytes for maxChars + 1 whole characters (at most 3 bytes per UTF-16 unit), so a cut sequence lands past the clip.
  const maxBytes = (maxChars + 2) * 3;
  // Ranges by first line; a range is active from its first line until its last or until its text is full,
  // so an answer citing thousands of ranges costs per line only the ranges that line is in.
  const order = ranges.map((_, i) => i).sort((a, b) => ranges[a]!.from - ranges[b]!.from);
  let nextRange = 0;
  let active: number[] = [];
  let line = 0;
  const splitter = new LineSplitter((bytes, start, end) => {
    line += 1;
    while (nextRange < order.length && ranges[order[nextRange]!]!.from <= line) active.push(order[nextRange++]!);
    if (active.length === 0) return;
    const piece = decoder.decode(bytes.subarray(start, Math.min(end, start + maxBytes))).replace(/\r$/, '');
    for (const i of active) texts[i] = line === ranges[i]!.from ? piece : `${texts[i]}\n${piece}`;
    active = active.filter((i) => line < ranges[i]!.to && texts[i]!.length <= maxChars);
  });
  if (!(await scan((chunk) => splitter.push(chunk)))) return undefined;
  splitter.end();
  return ranges.map((range, i) => (range.to > line ? { kind: 'short', lines: line } : { kind: 'ok', text: clip(texts[i]!, maxChars) }));
}

function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}…`;
}
