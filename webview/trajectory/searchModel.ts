// Search input to protocol filters, and how results are summarised. Pure: unit-tested.
import type { SearchFilters } from '../../src/shared/trajectoryProtocol';
import { plural } from '../../src/shared/text/format';

export interface SearchInput {
  query: string;
  errorsOnly: boolean;
  /** '' for any. */
  model: string;
  /** '' for any, else a depth number as text. */
  depth: string;
}

/** Filters for a search, or undefined when there is nothing to search for. */
export function buildFilters(input: SearchInput): SearchFilters | undefined {
  const depth = input.depth === '' ? undefined : Number(input.depth);
  const filters: SearchFilters = {
    errorsOnly: input.errorsOnly,
    ...(input.model ? { model: input.model } : {}),
    ...(depth !== undefined && Number.isInteger(depth) && depth >= 0 ? { depth } : {}),
  };
  if (!input.query.trim() && !filters.errorsOnly && filters.model === undefined && filters.depth === undefined) return undefined;
  return filters;
}

export function sameSearch(a: SearchInput, b: SearchInput): boolean {
  return a.query === b.query && a.errorsOnly === b.errorsOnly && a.model === b.model && a.depth === b.depth;
}

export function describeResults(total: number, truncated: boolean, shown: number): string {
  if (total === 0) return 'No matches.';
  const base = plural(total, 'match', 'matches');
  return truncated ? `${base} (showing the first ${shown})` : base;
}
