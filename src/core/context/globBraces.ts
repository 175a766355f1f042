// Brace expansion of glob patterns, shared by VS Code's exclude settings and the paths an agent names.
// Both are hostile (a repository's .vscode/settings.json, an agent steered by what it read), and each
// group multiplies the count: `{a,b}` written 25 times is 33 million patterns, which took the process's
// memory. So the expansion stops at a limit with a typed error, after at most that many patterns built.

/** Patterns one glob may expand to: far more than any exclude list or agent's glob writes out. */
export const MAX_BRACE_EXPANSIONS = 1024;

/** A glob whose braces expand to more patterns than the limit. */
export class BraceExpansionError extends Error {
  constructor(
    readonly pattern: string,
    readonly limit: number,
  ) {
    super(`The glob "${pattern.length > 120 ? `${pattern.slice(0, 119)}…` : pattern}" expands to more than ${limit} patterns through its {…} groups; write fewer alternatives, or a wildcard instead.`);
    this.name = 'BraceExpansionError';
  }
}

/**
 * Expands `a{b,c}d` into `abd`, `acd` (nested groups too). Unbalanced braces are kept literally. Throws
 * BraceExpansionError past `limit` patterns.
 */
export function expandBraces(pattern: string, limit = MAX_BRACE_EXPANSIONS): string[] {
  const out: string[] = [];
  expandInto(pattern, out, pattern, limit);
  return out;
}

function expandInto(pattern: string, out: string[], original: string, limit: number): void {
  const open = pattern.indexOf('{');
  if (open < 0) {
    if (out.length >= limit) throw new BraceExpansionError(original, limit);
    out.push(pattern);
    return;
  }
  let depth = 0;
  let close = -1;
  const commas: number[] = [];
  for (let i = open; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '{') depth++;
    else if (ch === '}') {
      depth--;
      if (depth === 0) {
        close = i;
        break;
      }
    } else if (ch === ',' && depth === 1) commas.push(i);
  }
  if (close < 0) {
    if (out.length >= limit) throw new BraceExpansionError(original, limit);
    out.push(pattern);
    return;
  }
  const head = pattern.slice(0, open);
  const tail = pattern.slice(close + 1);
  const bounds = [open, ...commas, close];
  for (let k = 0; k < bounds.length - 1; k++) {
    const option = pattern.slice((bounds[k] ?? 0) + 1, bounds[k + 1]);
    // Every branch ends in at least one pattern pushed, so the work stops within `limit` branches.
    expandInto(head + option + tail, out, original, limit);
  }
}
