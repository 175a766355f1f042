// What provider batch APIs (OpenAI's Batch API, Anthropic's Message Batches) share at run time: the
// error of a server without them, the id shapes a record's ids must have, and empty counts. The
// interface itself (BatchApi and its records) is declared with ModelClient in modelTypes.ts, which
// offers one through `batches`.
import type { BatchCounts } from './modelTypes';

/** The server answered the batch endpoint with 404 (or 405): a compatible server without batches. */
export class BatchUnsupportedError extends Error {
  readonly kind = 'BatchUnsupportedError';
  constructor(
    readonly endpoint: string,
    readonly status: number,
  ) {
    super(`the server at ${endpoint} has no batch endpoint (HTTP ${status})`);
    this.name = 'BatchUnsupportedError';
  }
}

/** The provider's ids are letters, digits, '_' and '-': anything else (from a record) is not sent. */
export const PROVIDER_BATCH_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Custom ids as both APIs accept them (Anthropic: 1–64 of these characters). */
export const CUSTOM_ID = /^[A-Za-z0-9_-]{1,64}$/;

export function emptyCounts(total: number): BatchCounts {
  return { total, succeeded: 0, errored: 0, expired: 0, canceled: 0, processing: total };
}
