// Grading: exact match (normalised), 0.75 ** |error| for numbers, F1 over pairs, multiple-choice letters.
// Every scorer returns a value in [0, 1].
import type { BenchTask } from './taskTypes';

/** Lower case, outer quotes, trailing punctuation, and a leading "answer:" removed; whitespace collapsed. */
function normaliseAnswer(text: string): string {
  return text
    .trim()
    .replace(/^(final\s+)?answer\s*[:-]\s*/i, '')
    .replace(/^["'`*\s]+|["'`*.!\s]+$/g, '')
    .replace(/\s+/g, ' ')
    .toLowerCase();
}

export function scoreExact(expected: string, actual: string): number {
  return normaliseAnswer(expected) === normaliseAnswer(actual) ? 1 : 0;
}

/** The first number in the answer (commas as thousands separators allowed), or undefined. */
function extractNumber(text: string): number | undefined {
  const m = /-?\d[\d,]*(?:\.\d+)?/.exec(text);
  if (!m) return undefined;
  const n = Number(m[0].replace(/,/g, ''));
  return Number.isFinite(n) ? n : undefined;
}

export function scoreNumeric(expected: string, actual: string): number {
  const want = Number(expected);
  const got = extractNumber(actual);
  if (got === undefined || !Number.isFinite(want)) return 0;
  return 0.75 ** Math.abs(got - want);
}

/** Unordered pairs of integers found in the text, as "small,large" keys. */
export function extractPairs(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/(\d+)\s*[,;:\-–]\s*(\d+)/g)) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    if (a === b) continue;
    out.add(a < b ? `${a},${b}` : `${b},${a}`);
  }
  return out;
}

export function scorePairsF1(expected: string, actual: string): number {
  const want = extractPairs(expected);
  const got = extractPairs(actual);
  if (want.size === 0 && got.size === 0) return 1;
  if (want.size === 0 || got.size === 0) return 0;
  let hits = 0;
  for (const p of got) if (want.has(p)) hits++;
  if (hits === 0) return 0;
  const precision = hits / got.size;
  const recall = hits / want.size;
  return (2 * precision * recall) / (precision + recall);
}

/** The chosen letter: a lone A-D (e.g. "B", "(B)", "B)", "Answer: B"), or the text of exactly one choice. */
export function extractChoice(text: string, choices: readonly string[] = []): string | undefined {
  const trimmed = normaliseAnswer(text);
  const lone = /^\(?([a-d])\)?(?:[).:\s]|$)/i.exec(trimmed);
  if (lone) return lone[1]!.toUpperCase();
  const matching = choices.map((c, i) => ({ c, i })).filter(({ c }) => normaliseAnswer(c) === trimmed);
  if (matching.length === 1) return 'ABCD'[matching[0]!.i];
  return undefined;
}

export function scoreMultipleChoice(expected: string, actual: string, choices: readonly string[] = []): number {
  return extractChoice(actual, choices) === expected.toUpperCase() ? 1 : 0;
}

export function scoreAnswer(task: Pick<BenchTask, 'scorer' | 'answer' | 'choices'>, actual: string | undefined): number {
  if (actual === undefined) return 0;
  switch (task.scorer) {
    case 'exact':
      return scoreExact(task.answer, actual);
    case 'numeric':
      return scoreNumeric(task.answer, actual);
    case 'pairsF1':
      return scorePairsF1(task.answer, actual);
    case 'multipleChoice':
      return scoreMultipleChoice(task.answer, actual, task.choices);
  }
}
