// How numbers, money, times and statuses read in the trajectory view. Pure: unit-tested in Node.
import { statusWord } from '../../src/shared/text/statusWords';
import { cacheText } from '../../src/shared/text/cacheText';
import { costText, totalsCostText } from '../../src/shared/text/costText';
import { formatCost, formatCount, formatTokenCount, plural } from '../../src/shared/text/format';
import type { NodeTotals } from '../../src/shared/nodeTotals';
import type { BatchEstimateView, SubCallView, TurnView, ViewRunStatus } from '../../src/shared/trajectoryProtocol';

export function formatChars(n: number): string {
  return plural(n, 'character');
}

export function statusLabel(status: ViewRunStatus): string {
  return statusWord(status);
}

/** Codicon name for a status. */
export function statusIcon(status: ViewRunStatus): string {
  switch (status) {
    case 'completed':
      return 'pass';
    case 'running':
      return 'loading';
    case 'cancelled':
      return 'debug-stop';
    case 'forced':
    case 'limit':
    case 'incomplete':
      return 'warning';
    case 'error':
      return 'error';
  }
}

/** The cost of one call or turn: null is an unknown price, 0 on a local server is no charge. */
export function callCost(usd: number | null | undefined, local: boolean, includedInPlan = false): string {
  return costText({ usd: usd ?? null, unknown: usd === null, local, includedInPlan });
}

type UsageFigures = Pick<NodeTotals, 'inputTokens' | 'outputTokens' | 'costUsd' | 'costUnknown' | 'cacheReadTokens' | 'cachedSubCalls' | 'savedUsd' | 'includedInPlan'>;

/**
 * "1.2k in · 340 out · $0.012" (or "· local (no charge)", "· price unknown", "· ≥ $0.01"), and what
 * caching did when it did anything: "… · 1k cached · saved $0.004".
 */
export function formatUsage(t: UsageFigures, local: boolean): string {
  const usage = `${formatTokenCount(t.inputTokens)} in · ${formatTokenCount(t.outputTokens)} out · ${totalsCostText(t, local, true)}`;
  const cache = cacheText(t);
  return cache ? `${usage} · ${cache}` : usage;
}

/** A sub-call answered from the sub-call cache: "cached · saved $0.003" (no tokens were sent). */
export function cachedCallText(savedUsd: number | undefined): string {
  const saved = cacheText({ savedUsd });
  return saved ? `cached · ${saved}` : 'cached';
}

/** What a replayed turn or sub-call cost: it came from the record, so nothing was sent (never "$0.00"). */
const REPLAYED_TEXT = 'replayed from the record · not sent, not billed';

/** A sub-call's own figures: what the cache saved, that it was replayed, or its tokens and cost. */
export function callFiguresText(call: Pick<SubCallView, 'cached' | 'replayed' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'totals' | 'includedInPlan'>, local: boolean): string {
  if (call.cached) return cachedCallText(call.totals.savedUsd);
  if (call.replayed) return REPLAYED_TEXT;
  if (call.inputTokens === undefined) return '';
  return `${formatTokenCount(call.inputTokens)} in · ${formatTokenCount(call.outputTokens ?? 0)} out · ${callCost(call.costUsd, local, call.includedInPlan === true)}`;
}

/** The root model's figures for one turn, with what the provider's cache saved; '' before its reply. */
export function turnModelText(turn: Pick<TurnView, 'replayed' | 'inputTokens' | 'outputTokens' | 'costUsd' | 'cacheReadTokens' | 'savedUsd' | 'includedInPlan'>, local: boolean): string {
  if (turn.replayed) return `root model ${REPLAYED_TEXT}`;
  if (turn.inputTokens === undefined) return '';
  const cached = cacheText(turn);
  return `root model ${formatTokenCount(turn.inputTokens)} in · ${formatTokenCount(turn.outputTokens ?? 0)} out · ${callCost(turn.costUsd, local, turn.includedInPlan === true)}${cached ? ` · ${cached}` : ''}`;
}

/**
 * A large batch as estimated before it was sent: "Estimated before sending: 60 prompts (1.2M
 * characters), about $0.012", or, refused, what it would have cost and that nothing was sent.
 */
export function batchEstimateText(e: BatchEstimateView): string {
  const size = `${plural(e.prompts, 'prompt')} (${e.chars >= 1_000_000 ? `${(e.chars / 1_000_000).toFixed(1)}M` : formatCount(e.chars)} characters)`;
  const cost = e.estimatedCostUsd === null ? 'cost unknown (no price is set for the model)' : `about ${formatCost(e.estimatedCostUsd)}`;
  if (e.refused) return `Batch refused before sending: ${size} would cost ${cost}, past the run's cost limit (rlm.maxCostUsd). Nothing was sent.`;
  return `Batch estimated before sending: ${size}, ${cost}.`;
}

function percent(part: number, whole: number): string {
  if (whole === 0 || part === 0) return '0%';
  const p = (100 * part) / whole;
  return p < 0.1 ? '<0.1%' : `${p < 10 ? p.toFixed(1) : Math.round(p)}%`;
}

/**
 * "100% of 20 lines seen (10 short or blank lines not counted)": the share is of the lines that can be
 * seen at all (8+ characters), as the strip's buckets count them; a blank line or a brace is never
 * "unseen", so a file whose every chunk went to a sub-call reads 100%, not 50%.
 */
export function coverageSeenText(c: { totalLines: number; seenLines: number; buckets: ReadonlyArray<{ lines: number }> }): string {
  const countable = c.buckets.reduce((n, b) => n + b.lines, 0);
  const skipped = c.totalLines - countable;
  return `${percent(c.seenLines, countable)} of ${plural(countable, 'line')} seen${skipped > 0 ? ` (${plural(skipped, 'short or blank line')} not counted)` : ''}`;
}
