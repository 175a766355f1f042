// The one line of figures of a running question: the status bar, the progress notification, the chat
// and the trajectory view's header all print it from the same figures, so they always agree.
import { cacheText } from './cacheText';
import { costTextShort } from './costText';
import { formatTokenCount, plural } from './format';
import type { NodeTotals } from '../nodeTotals';
import type { RunLiveLine } from '../sidebarState';

/** "turn 3 · 12 sub-calls · 45k tokens · $0.012" (or "· local (no charge)", "· price unknown"). */
export function formatLiveLine(line: RunLiveLine): string {
  return `${line.turn > 0 ? `turn ${line.turn}` : 'starting'} · ${formatFigures(line)}`;
}

/**
 * The same figures without the turn: "12 sub-calls · 45k tokens · $0.012" (after "Answered in 3 turns"),
 * with what caching did when it did anything: "… · $0.012 · 30k cached · saved $0.04".
 */
export function formatFigures(line: Omit<RunLiveLine, 'turn' | 'activity'>): string {
  const tokens = line.inputTokens + line.outputTokens;
  const cost = costTextShort({ usd: line.costUsd, unknown: line.costUnknown, local: line.costLocal, includedInPlan: line.includedInPlan === true });
  return [plural(line.subCalls, 'sub-call'), `${formatTokenCount(tokens)} tokens`, cost, cacheText(line)].filter(Boolean).join(' · ');
}

/** Totals as a run's tree keeps them (cost 0 until something is charged). */
type LiveTotals = Pick<NodeTotals, 'inputTokens' | 'outputTokens' | 'costUsd' | 'costUnknown' | 'includedInPlan' | 'subCalls' | 'cacheReadTokens' | 'cachedSubCalls' | 'savedUsd'>;

/**
 * The live line's figures from a run's totals: the status bar, the chat and the trajectory view all
 * build them here, so the same totals always read the same. Nothing charged yet is not "$0".
 */
export function liveLineOf(totals: LiveTotals, turn: number, local: boolean, activity: string): RunLiveLine {
  const nothingYet = totals.costUsd === 0 && (totals.costUnknown || totals.inputTokens + totals.outputTokens === 0);
  return {
    turn,
    subCalls: totals.subCalls,
    inputTokens: totals.inputTokens,
    outputTokens: totals.outputTokens,
    costUsd: nothingYet ? null : totals.costUsd,
    costUnknown: totals.costUnknown,
    costLocal: local,
    activity,
    ...(totals.includedInPlan ? { includedInPlan: true } : {}),
    ...(totals.cacheReadTokens ? { cacheReadTokens: totals.cacheReadTokens } : {}),
    ...(totals.cachedSubCalls ? { cachedSubCalls: totals.cachedSubCalls } : {}),
    ...(totals.savedUsd ? { savedUsd: totals.savedUsd } : {}),
  };
}
