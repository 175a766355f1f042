// The user's selection as the input of a run an agent asked for ("explain this", "what does the
// selected code do"): the selected lines of one file, bound at their own line numbers. Every line
// outside the selection is bound empty, so whatever the run computes a line number with (search()
// hits, peek(), enumerate over splitlines()) is the file's own, and the answer's `path:line`
// citations resolve to the lines the user sees. No editor here: the caller hands the lines over.
import { formatCount, plural } from '../../shared/text/format';

/** Whole lines of a file, 1-based and inclusive. */
interface SelectedLines {
  startLine: number;
  endLine: number;
}

/** A selection as an editor gives it: 0-based positions, the end exclusive of its character. */
interface EditorRange {
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/**
 * The whole lines each non-empty range covers, sorted and merged where they touch. A range ending at
 * the start of a line (a selection of whole lines made with the keyboard) does not take that line.
 */
export function selectedLines(ranges: readonly EditorRange[]): SelectedLines[] {
  const spans = ranges
    .filter((r) => r.start.line !== r.end.line || r.start.character !== r.end.character)
    .map((r) => {
      const [a, b] = r.start.line < r.end.line || (r.start.line === r.end.line && r.start.character <= r.end.character) ? [r.start, r.end] : [r.end, r.start];
      const last = b.character === 0 && b.line > a.line ? b.line - 1 : b.line;
      return { startLine: a.line + 1, endLine: last + 1 };
    })
    .sort((x, y) => x.startLine - y.startLine);
  const merged: SelectedLines[] = [];
  for (const span of spans) {
    const previous = merged[merged.length - 1];
    if (previous && span.startLine <= previous.endLine + 1) previous.endLine = Math.max(previous.endLine, span.endLine);
    else merged.push({ ...span });
  }
  return merged;
}

/**
 * The text bound for `lines`: each selected line at its own line number, every other line up to the
 * last selected one empty. `lineAt` gives a line's text (1-based) without its line break.
 */
export function alignedSelectionText(lines: readonly SelectedLines[], lineAt: (line: number) => string): string {
  const out: string[] = [];
  for (const span of lines) {
    while (out.length < span.startLine - 1) out.push('');
    for (let line = span.startLine; line <= span.endLine; line++) out.push(lineAt(line));
  }
  return out.length ? `${out.join('\n')}\n` : '';
}

export function selectedLineCount(lines: readonly SelectedLines[]): number {
  return lines.reduce((n, s) => n + s.endLine - s.startLine + 1, 0);
}

/** "the 40 selected lines of src/x.ts"; with several ranges, "(lines 10-20, 40-79 and 100)" after it. */
export function describeSelection(path: string, lines: readonly SelectedLines[]): string {
  const count = selectedLineCount(lines);
  const what = count === 1 ? `selected line ${formatCount(lines[0]?.startLine ?? 0)} of ${path}` : `${plural(count, 'selected line')} of ${path}`;
  if (lines.length <= 1) return `the ${what}${count > 1 && lines[0] ? ` (lines ${lines[0].startLine}-${lines[0].endLine})` : ''}`;
  const ranges = lines.map((s) => (s.startLine === s.endLine ? `${s.startLine}` : `${s.startLine}-${s.endLine}`));
  return `the ${what} (lines ${ranges.slice(0, -1).join(', ')} and ${ranges[ranges.length - 1]})`;
}

/** How the selection is shown where a path is (History, the run's header): "src/x.ts:40-79", ranges joined by commas. */
export function selectionLabel(path: string, lines: readonly SelectedLines[]): string {
  return `${path}:${lines.map((s) => (s.startLine === s.endLine ? `${s.startLine}` : `${s.startLine}-${s.endLine}`)).join(',')}`;
}
