// What caching did for a run, in a few words beside its cost: "12k cached · saved $0.04". The status
// bar, the progress notification, the chat and the trajectory view all print it from here, and only
// when there is something to say, so a run without caching reads exactly as before.
import { formatCost, formatTokenCount, plural } from './format';

/** The cache figures of a run's (or a node's) totals; every field is absent when nothing was cached. */
interface CacheFigures {
  /** Prompt tokens read from the providers' prompt caches. */
  cacheReadTokens?: number;
  /** Sub-calls answered from the sub-call cache, with no request sent. */
  cachedSubCalls?: number;
  /** What caching saved against full price; negative when cache writes cost more than reads saved so far. */
  savedUsd?: number;
}

/** Below half a hundredth of a cent a saving (or extra cost) is noise, not news. */
const MONEY_EPSILON = 0.000_05;

/**
 * "12k cached · saved $0.04", "3 cached sub-calls · saved $0.012", "12k cached", or "" when nothing was
 * cached. A negative saving (cache writes on a first turn cost a premium) reads "cache writes +$0.002".
 */
export function cacheText(figures: CacheFigures): string {
  const read = finite(figures.cacheReadTokens);
  const calls = finite(figures.cachedSubCalls);
  const saved = finite(figures.savedUsd);
  const parts: string[] = [];
  if (read > 0) parts.push(`${formatTokenCount(read)} cached`);
  if (calls > 0) parts.push(plural(calls, 'cached sub-call'));
  if (saved > MONEY_EPSILON) parts.push(`saved ${formatCost(saved)}`);
  else if (saved < -MONEY_EPSILON) parts.push(`cache writes +${formatCost(-saved)}`);
  return parts.join(' · ');
}

function finite(n: number | undefined): number {
  return n !== undefined && Number.isFinite(n) ? n : 0;
}
