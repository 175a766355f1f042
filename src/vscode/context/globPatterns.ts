// Turns the exclude settings into the single glob workspace.findFiles accepts. VS Code's glob syntax
// has no nested braces, so every pattern is brace-expanded first and the results joined in one group.
import { expandBraces } from '../../core/context/globBraces';

export { expandBraces };

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
