// Provider batch APIs (OpenAI's Batch API, Anthropic's Message Batches) behind one small interface:
// a batch is created once, polled until it ends, and its results read back by custom id. The loop
// (core/loop/subCallBatch.ts) is the only user; each SDK client offers one through `batches`.
import type { ChatMessage, Completion, ProviderKind } from './modelTypes';

/** One request of a batch: its custom id is how the result finds its prompt again. */
export interface BatchRequest {
  customId: string;
  messages: ChatMessage[];
  maxTokens: number;
}

/** How many of a batch's requests are where, in the provider's own terms mapped onto one set. */
export interface BatchCounts {
  total: number;
  /** Done and answered. */
  succeeded: number;
  /** Done with an error (including requests the provider refused). */
  errored: number;
  /** Not run before the batch's window closed. */
  expired: number;
  /** Not run because the batch was cancelled. */
  canceled: number;
  /** Still waiting or running. */
  processing: number;
}

/** What one poll of a batch says. */
export interface BatchSnapshot {
  /** The provider's batch id. */
  id: string;
  /** The provider's own status word (OpenAI: validating, in_progress, …; Anthropic: in_progress, canceling, ended). */
  status: string;
  /** True once no request of it will change any more: results can be read. */
  ended: boolean;
  counts: BatchCounts;
}

/** One request's outcome. A missing outcome is an error the caller names itself. */
export type BatchOutcome =
  | { customId: string; completion: Omit<Completion, 'latencyMs'> }
  | { customId: string; error: { kind: BatchItemErrorKind; message: string } };

/** Why a request of a batch has no answer: Python sees these kinds in its "[ERROR] kind: …" strings. */
type BatchItemErrorKind = 'batch_errored' | 'batch_expired' | 'batch_canceled';

export interface BatchApi {
  readonly provider: Extract<ProviderKind, 'openai' | 'anthropic'>;
  /** What the batch price is against the ordinary one (0.5: half price); 1 where no discount is known. */
  readonly priceFactor: number;
  /** Sends the requests as one batch. Throws BatchUnsupportedError when the server has no batch endpoint. */
  create(requests: readonly BatchRequest[], signal?: AbortSignal): Promise<BatchSnapshot>;
  retrieve(id: string, signal?: AbortSignal): Promise<BatchSnapshot>;
  /** The outcomes of an ended batch, in whatever order the provider gives them. */
  results(snapshot: BatchSnapshot, signal?: AbortSignal): Promise<BatchOutcome[]>;
  /** Asks the provider to stop the batch; requests already done stay done (and billed). */
  cancel(id: string): Promise<BatchSnapshot>;
  /** The batch price of a call of these sizes; null when the price is unknown. */
  estimateCostUsd(inputTokens: number, outputTokens: number): number | null;
}

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
