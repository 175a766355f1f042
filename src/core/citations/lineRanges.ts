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
  const last = Math.max(0, ...ranges.map((r) => r.to));
  let line = 0;
  const splitter = new LineSplitter((bytes, start, end) => {
    line += 1;
    if (line > last) return;
    for (let i = 0; i < ranges.length; i++) {
      const range = ranges[i]!;
      if (line < range.from || line > range.to || texts[i]!.length > maxChars) continue;
      const piece = decoder.decode(bytes.subarray(start, Math.min(end, start + maxBytes))).replace(/\r$/, '');
      texts[i] = line === range.from ? piece : `${texts[i]}\n${piece}`;
    }
  });
  if (!(await scan((chunk) => splitter.push(chunk)))) return undefined;
  splitter.end();
  return ranges.map((range, i) => (range.to > line ? { kind: 'short', lines: line } : { kind: 'ok', text: clip(texts[i]!, maxChars) }));
}

function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}…`;
}
