// Turns the exclude settings into the single glob workspace.findFiles accepts. VS Code's glob syntax
// has no nested braces, so every pattern is brace-expanded first and the results joined in one group.

/** Expands `a{b,c}d` into `abd`, `acd` (nested groups too). Unbalanced braces are kept literally. */
export function expandBraces(pattern: string): string[] {
  const open = pattern.indexOf('{');
  if (open < 0) return [pattern];
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
  if (close < 0) return [pattern];
  const head = pattern.slice(0, open);
  const tail = pattern.slice(close + 1);
  const bounds = [open, ...commas, close];
  const out: string[] = [];
  for (let k = 0; k < bounds.length - 1; k++) {
    const option = pattern.slice((bounds[k] ?? 0) + 1, bounds[k + 1]);
    for (const expanded of expandBraces(head + option + tail)) out.push(expanded);
  }
  return out;
}

/** The patterns of a `files.exclude`-style object that are switched on (`true`); conditional entries are skipped. */
export function enabledPatterns(setting: unknown): string[] {
  if (typeof setting !== 'object' || setting === null) return [];
  return Object.entries(setting as Record<string, unknown>)
    .filter(([, value]) => value === true)
    .map(([pattern]) => pattern);
}

/** One glob matching any of `patterns`, or undefined when there are none. */
export function combineGlobs(patterns: readonly string[]): string | undefined {
  const expanded = [...new Set(patterns.flatMap((p) => expandBraces(p.trim())).filter(Boolean))];
  if (expanded.length === 0) return undefined;
  if (expanded.length === 1) return expanded[0];
  // A comma inside a single pattern would split the group; such patterns cannot be expressed.
  return `{${expanded.filter((p) => !p.includes(',')).join(',')}}`;
}
