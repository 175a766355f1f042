// How numbers, money, times and statuses read in the trajectory view. Pure: unit-tested in Node.
import type { ViewRunStatus, ViewTotals } from '../../src/shared/trajectoryProtocol';

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(n < 10_000_000 ? 2 : 1)}M`;
}

/** A cost that is partly unknown is a lower bound ("≥"); wholly unknown is "unknown", never "$0". */
export function formatCost(usd: number | null | undefined, unknown = false): string {
  if (usd === null || usd === undefined || (unknown && usd === 0)) return 'cost unknown';
  const digits = usd === 0 ? 2 : usd < 0.01 ? 4 : usd < 1 ? 3 : 2;
  const text = `$${usd.toFixed(digits)}`;
  return unknown ? `≥ ${text}` : text;
}

export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.round((ms % 60_000) / 1000);
  return `${minutes} min ${seconds} s`;
}

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
export function formatUsage(t: Pick<ViewTotals, 'inputTokens' | 'outputTokens' | 'costUsd' | 'costUnknown'>): string {
  return `${formatTokens(t.inputTokens)} in · ${formatTokens(t.outputTokens)} out · ${formatCost(t.costUsd, t.costUnknown)}`;
}
