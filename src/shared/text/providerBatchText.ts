// One line about a provider batch (--batch), for the CLI's notes, `rlm show` and the trajectory view:
// where its requests are and how long it has been going.
import { formatDuration, plural } from './format';

interface ProviderBatchFigures {
  /** Absent where the event does not say (progress and end events name only the batch). */
  provider?: string;
  providerBatchId: string;
  status: string;
  counts: { total: number; succeeded: number; errored: number; expired: number; canceled: number; processing: number };
  elapsedMs: number;
  ended: boolean;
  cancelled?: boolean;
  resumed?: boolean;
  failure?: string;
}

export function describeProviderBatch(b: ProviderBatchFigures): string {
  const c = b.counts;
  const done = c.succeeded + c.errored;
  const parts = [`${done} of ${plural(c.total, 'request')} done`];
  if (c.errored) parts.push(`${c.errored} failed`);
  if (c.expired) parts.push(`${c.expired} expired`);
  if (c.canceled) parts.push(`${c.canceled} cancelled`);
  const state = b.cancelled
    ? `cancelled after ${formatDuration(b.elapsedMs)}; ${done} already run and billed at the batch price`
    : b.ended
      ? `ended (${b.status}) after ${formatDuration(b.elapsedMs)}${b.failure ? `: ${b.failure}` : ''}`
      : `waiting (${b.status}), ${formatDuration(b.elapsedMs)} so far`;
  return `${providerBatchName(b.provider)} ${b.providerBatchId}${b.resumed ? ' (taken up from the record)' : ''}: ${parts.join(', ')}; ${state}`;
}

function providerBatchName(provider: string | undefined): string {
  return provider === 'anthropic' ? 'Anthropic message batch' : provider === 'openai' ? 'OpenAI batch' : 'provider batch';
}

/** What the batch price is, said where a batch is shown (the discount is the reason to wait for one). */
export function providerBatchDiscountText(provider: string): string {
  const api = provider === 'anthropic' ? "Anthropic's Message Batches" : provider === 'openai' ? "OpenAI's Batch API" : 'the provider';
  return `Billed at the batch price: half the ordinary price on ${api} (a compatible server's own price unless rlm.prices sets batchPriceFactor).`;
}
