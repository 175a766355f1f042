// What both batch wires share: one SDK call with its own abort signal and errors mapped like a
// completion's, a 404 told apart (no batch endpoint here, or no such batch), and batch pricing.
import { errorInfo, perRequestSignal } from './clientSetup';
import type { ClientSetup } from './clientSetup';
import { BatchUnsupportedError } from './batchTypes';
import { ModelRequestError } from './modelErrors';
import type { TokenUsage } from './modelTypes';
import { computeCostUsd, makeUsage } from './pricing';
import type { TokenCounts } from './pricing';
import { toModelError } from './sdkErrorMapping';
import type { SdkErrorClasses } from './sdkErrorMapping';

/** Both providers bill batch requests at half their ordinary price. */
const OFFICIAL_BATCH_PRICE_FACTOR = 0.5;

/**
 * The batch price against the ordinary one: the user's `batchPriceFactor` when set, half on the
 * official APIs, and the full price elsewhere (a compatible server's discount is not known).
 */
export function batchPriceFactor(setup: ClientSetup): number {
  const configured = setup.pricing?.batchPriceFactor;
  if (configured !== undefined) return configured;
  return setup.endpoint.isOfficial ? OFFICIAL_BATCH_PRICE_FACTOR : 1;
}

/** A batch result's usage at the batch price; `savedUsd` includes what the discount saved. */
export function batchUsage(counts: TokenCounts, setup: ClientSetup): TokenUsage {
  const full = makeUsage(counts, setup.pricing, false);
  const factor = batchPriceFactor(setup);
  if (full.costUsd === null) return { ...full, batchPrice: true };
  const cost = full.costUsd * factor;
  const saved = (full.savedUsd ?? 0) + (full.costUsd - cost);
  const { savedUsd: _ignored, ...rest } = full;
  return { ...rest, costUsd: cost, ...(saved !== 0 ? { savedUsd: saved } : {}), batchPrice: true };
}

export function batchEstimate(setup: ClientSetup, inputTokens: number, outputTokens: number): number | null {
  const full = computeCostUsd({ inputTokens, outputTokens }, setup.pricing);
  return full === null ? null : full * batchPriceFactor(setup);
}

/** The batch the record names does not exist for this key on this endpoint. */
class BatchNotFoundError extends ModelRequestError {
  constructor(
    readonly batchId: string,
    info: ReturnType<typeof errorInfo>,
  ) {
    super(`batch ${batchId} was not found on ${info.endpoint}`, info);
  }
}

/**
 * Runs one SDK call of the batch API. `onNotFound` says what a 404 means here: `unsupported` when
 * creating (the server has no batch endpoint), `missing` when reading a batch by id.
 */
export async function batchCall<T>(
  setup: ClientSetup,
  sdk: SdkErrorClasses,
  signal: AbortSignal | undefined,
  onNotFound: { unsupported: true } | { missing: string },
  send: (signal: AbortSignal | undefined) => Promise<T>,
): Promise<T> {
  const link = perRequestSignal(signal);
  try {
    return await send(link.signal);
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (error instanceof sdk.APIError && (status === 404 || status === 405)) {
      if ('unsupported' in onNotFound) throw new BatchUnsupportedError(setup.endpoint.display, status);
      throw new BatchNotFoundError(onNotFound.missing, errorInfo(setup));
    }
    throw toModelError(error, {
      ...errorInfo(setup),
      ...(setup.config.apiKey ? { apiKey: setup.config.apiKey } : {}),
      ...(signal ? { signal } : {}),
      timeoutMs: setup.timeoutMs,
      sdk,
    });
  } finally {
    link.dispose();
  }
}
