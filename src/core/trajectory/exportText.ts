// Text helpers shared by the Markdown and notebook exports, `rlm show` and the trajectory view.
import { formatCount } from '../../shared/text/format';

/** Keeps the head and tail of a long text, saying how much was left out. */
export function clipMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const head = Math.ceil(maxChars * 0.6);
  const tail = maxChars - head;
  const omitted = text.length - head - tail;
  return `${text.slice(0, head)}\n… [${formatCount(omitted)} characters omitted] …\n${tail > 0 ? text.slice(-tail) : ''}`;
}

/**
 * The reasoning around a turn's code: the model's text without the fenced blocks that ran as cells
 * (those are shown as cells). Blocks that did not run, such as an example of expected output, stay.
 * The view, the exports and search all use this, so they agree on what the reasoning is.
 */
export function reasoningText(turn: { modelText?: string; cells: ReadonlyArray<{ code: string }> }): string {
  const text = turn.modelText ?? '';
  if (turn.cells.length === 0) return text.trim();
  const ran = new Set(turn.cells.map((c) => c.code.trim()));
  return text
    .replace(/```[^\n`]*\n([\s\S]*?)(?:```|$)/g, (block, body: string) => (ran.has(body.trim()) ? '' : block))
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** A backtick fence longer than any run of backticks inside the text, so the text cannot close it. */
export function fenceFor(text: string): string {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * A recorded output with the gap marked where it was: the host records the real head and the real
 * tail of a long output (`cutAt` is where they meet), so the mark goes between them.
 */
export function markOmission(text: string, totalChars: number | undefined, cutAt: number | undefined): string {
  if (totalChars === undefined || totalChars <= text.length) return text;
  const omitted = `[… ${formatCount(totalChars - text.length)} characters were not recorded …]`;
  return cutAt !== undefined && cutAt <= text.length ? `${text.slice(0, cutAt)}\n${omitted}\n${text.slice(cutAt)}` : `${text}\n${omitted}`;
}

