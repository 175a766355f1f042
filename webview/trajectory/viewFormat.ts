// How numbers, money, times and statuses read in the trajectory view. Pure: unit-tested in Node.
import { costText, costTextShort } from '../../src/shared/costText';
import { formatTokenCount } from '../../src/shared/format';
import type { NodeTotals } from '../../src/shared/nodeTotals';
import type { ViewRunStatus } from '../../src/shared/trajectoryProtocol';

export function formatChars(n: number): string {
  return `${n.toLocaleString('en-US')} character${n === 1 ? '' : 's'}`;
}

const STATUS_LABELS: Record<ViewRunStatus, string> = {
  completed: 'Answered',
  forced: 'Best answer at a limit',
  cancelled: 'Stopped',
  limit: 'Stopped at a limit',
  error: 'Failed',
  running: 'Running',
  incomplete: 'Incomplete (the file has no end)',
};

export function statusLabel(status: ViewRunStatus): string {
  return STATUS_LABELS[status];
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
export function callCost(usd: number | null | undefined, local: boolean): string {
  return costText({ usd: usd ?? null, unknown: usd === null, local });
}

/** "1.2k in · 340 out · $0.012" (or "· local (no charge)", "· price unknown", "· ≥ $0.01"). */
export function formatUsage(t: Pick<NodeTotals, 'inputTokens' | 'outputTokens' | 'costUsd' | 'costUnknown'>, local: boolean): string {
  return `${formatTokenCount(t.inputTokens)} in · ${formatTokenCount(t.outputTokens)} out · ${costTextShort({ usd: t.costUsd, unknown: t.costUnknown, local })}`;
}
