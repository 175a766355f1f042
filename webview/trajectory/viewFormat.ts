// How numbers, money, times and statuses read in the trajectory view. Pure: unit-tested in Node.
import { formatCost, formatTokenCount } from '../../src/shared/format';
import type { NodeTotals } from '../../src/shared/nodeTotals';
import type { ViewRunStatus } from '../../src/shared/trajectoryProtocol';

export function formatChars(n: number): string {
  return `${n.toLocaleString('en-US')} char${n === 1 ? '' : 's'}`;
}

const STATUS_LABELS: Record<ViewRunStatus, string> = {
  completed: 'Completed',
  forced: 'Forced answer',
  cancelled: 'Stopped',
  limit: 'Limit reached',
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

/** "1.2k in · 340 out · $0.012" */
export function formatUsage(t: Pick<NodeTotals, 'inputTokens' | 'outputTokens' | 'costUsd' | 'costUnknown' | 'includedInPlan'>): string {
  return `${formatTokenCount(t.inputTokens)} in · ${formatTokenCount(t.outputTokens)} out · ${formatCost(t.costUsd, t.costUnknown, t.includedInPlan === true)}`;
}
