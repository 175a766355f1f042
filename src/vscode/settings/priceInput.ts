// Reads the price a person types for a model: input and output USD per million tokens, e.g.
// "0.15, 0.60", "$0.15 / $0.60" or "0.15 0.6". No `vscode` import: unit-tested.
import type { PriceSettingEntry } from './rlmSettings';

export function parsePriceInput(text: string): PriceSettingEntry | { problem: string } {
  const numbers = text.replace(/\$/g, ' ').split(/[\s,/;]+/).filter(Boolean);
  if (numbers.length !== 2) return { problem: 'Type two prices: input, then output, in US dollars per million tokens (for example 0.15, 0.60).' };
  const [input, output] = numbers.map(Number) as [number, number];
  if (![input, output].every((n) => Number.isFinite(n) && n >= 0)) return { problem: 'Prices are numbers of US dollars, 0 or more (for example 0.15, 0.60).' };
  return { input, output };
}
