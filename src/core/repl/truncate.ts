// The root model's view of a long observation: its head and tail, with the true length stated in the
// middle so the model knows how much it did not see (and can slice `_out[n]` for the rest).
import { formatCount } from '../../shared/text/format';

/**
 * Returns `text` unchanged when it fits in `maxChars`; otherwise head + marker + tail, at most
 * `maxChars` characters in total (unless maxChars is smaller than the marker itself).
 * `trueLength` is the length before any earlier capture cap (defaults to text.length).
 */
export function headTail(text: string, maxChars: number, trueLength: number = text.length): string {
  if (!Number.isInteger(maxChars) || maxChars < 0) throw new RangeError(`maxChars must be a non-negative integer, got ${maxChars}`);
  if (trueLength < text.length) throw new RangeError(`trueLength ${trueLength} is less than the text length ${text.length}`);
  if (text.length <= maxChars && trueLength === text.length) return text;
  const marker = (omitted: number): string =>
    `\n[... ${formatCount(omitted)} of ${formatCount(trueLength)} characters omitted ...]\n`;
  // The marker's own length depends on the omitted count; size it with the largest count it can state.
  const room = Math.max(0, maxChars - marker(trueLength).length);
  const headLen = Math.ceil(room / 2);
  const tailLen = Math.min(room - headLen, text.length - headLen);
  const head = text.slice(0, Math.min(headLen, text.length));
  const tail = tailLen > 0 ? text.slice(text.length - tailLen) : '';
  return head + marker(trueLength - head.length - tail.length) + tail;
}
