// Task lengths are given in tokens as "8k", "32k", "1m", "10m" or plain numbers; k = 1,000, m = 1,000,000.

const MIN_LENGTH_TOKENS = 1_000;
const MAX_LENGTH_TOKENS = 10_000_000;

export class TaskLengthError extends Error {
  constructor(
    readonly input: string,
    reason: string,
  ) {
    super(`invalid task length "${input}": ${reason} (use e.g. 8k, 32k, 1m, 10m)`);
    this.name = 'TaskLengthError';
  }
}

export function parseLength(input: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([km]?)\s*$/i.exec(input);
  if (!match) throw new TaskLengthError(input, 'not a number with an optional k or m suffix');
  const unit = match[2]!.toLowerCase();
  const value = Math.round(Number(match[1]) * (unit === 'k' ? 1_000 : unit === 'm' ? 1_000_000 : 1));
  if (value < MIN_LENGTH_TOKENS) throw new TaskLengthError(input, `below the minimum of ${MIN_LENGTH_TOKENS} tokens`);
  if (value > MAX_LENGTH_TOKENS) throw new TaskLengthError(input, `above the maximum of ${MAX_LENGTH_TOKENS} tokens`);
  return value;
}

/** The short label used in ids and tables: 32000 -> "32k", 1000000 -> "1m". */
export function formatLength(tokens: number): string {
  if (tokens % 1_000_000 === 0) return `${tokens / 1_000_000}m`;
  if (tokens % 1_000 === 0) return `${tokens / 1_000}k`;
  return String(tokens);
}

export function parseLengthList(input: string): number[] {
  const parts = input.split(',').map((s) => s.trim()).filter(Boolean);
  if (parts.length === 0) throw new TaskLengthError(input, 'no lengths given');
  return parts.map(parseLength);
}
