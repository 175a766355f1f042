// Turns token counts into USD. Three outcomes, kept distinct on purpose: a configured or listed
// price gives a number; a local endpoint is a known $0; anything else is null (unknown), which the
// UI shows as "cost unknown" rather than a misleading $0.
import type { ModelConfig, ModelPricing, TokenUsage } from './modelTypes';
import { ANTHROPIC_PRICES, OPENAI_PRICES } from './priceTable';

const FREE: ModelPricing = { inputPerMTok: 0, outputPerMTok: 0, cacheReadPerMTok: 0, cacheWritePerMTok: 0 };

// Dated snapshots and aliases of a listed model: "-20250514", "-2024-08-06", "-latest", "@20250514" (Vertex).
const SNAPSHOT_SUFFIX = /^(?:[-@](?:\d{8}|\d{4}-\d{2}-\d{2})|-latest)$/;

const ALL_PRICES: Array<[string, ModelPricing]> = [...Object.entries(OPENAI_PRICES), ...Object.entries(ANTHROPIC_PRICES)]
  // Longest key first, so "gpt-4o-2024-05-13" wins over "gpt-4o".
  .sort((a, b) => b[0].length - a[0].length);

/** The listed price of a model id, or undefined. Router prefixes ("openai/gpt-4o") are ignored. */
export function lookupPricing(model: string): ModelPricing | undefined {
  const id = model.trim().toLowerCase().replace(/^.*\//, '');
  for (const [key, pricing] of ALL_PRICES) {
    if (id === key) return pricing;
    if (id.startsWith(key) && SNAPSHOT_SUFFIX.test(id.slice(key.length))) return pricing;
  }
  return undefined;
}

/**
 * The price to charge for a model: configuration first, then $0 for local endpoints, then the table.
 * null means unknown.
 */
export function resolvePricing(config: Pick<ModelConfig, 'model' | 'pricing'>, isLocal: boolean): ModelPricing | null {
  if (config.pricing) {
    validatePricing(config.pricing, config.model);
    return config.pricing;
  }
  if (isLocal) return FREE;
  return lookupPricing(config.model) ?? null;
}

function validatePricing(pricing: ModelPricing, model: string): void {
  for (const [field, value] of Object.entries(pricing)) {
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < 0)) {
      throw new RangeError(`pricing.${field} for model "${model}" must be a non-negative number of USD per million tokens, got ${String(value)}`);
    }
  }
}

export interface TokenCounts {
  /** All prompt tokens, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** USD for one call, or null when the price is unknown. Cache prices default to the input price. */
export function computeCostUsd(counts: TokenCounts, pricing: ModelPricing | null): number | null {
  if (pricing === null) return null;
  const cacheRead = counts.cacheReadTokens ?? 0;
  const cacheWrite = counts.cacheWriteTokens ?? 0;
  const uncached = Math.max(0, counts.inputTokens - cacheRead - cacheWrite);
  const micro =
    uncached * pricing.inputPerMTok +
    cacheRead * (pricing.cacheReadPerMTok ?? pricing.inputPerMTok) +
    cacheWrite * (pricing.cacheWritePerMTok ?? pricing.inputPerMTok) +
    counts.outputTokens * pricing.outputPerMTok;
  return micro / 1_000_000;
}

/** Against paying the full input price for every prompt token: reads save, writes cost a premium. */
function cacheSavingsUsd(counts: TokenCounts, pricing: ModelPricing | null): number | undefined {
  const read = counts.cacheReadTokens ?? 0;
  const write = counts.cacheWriteTokens ?? 0;
  if (pricing === null || (read === 0 && write === 0)) return undefined;
  const input = pricing.inputPerMTok;
  const saved = read * (input - (pricing.cacheReadPerMTok ?? input)) - write * ((pricing.cacheWritePerMTok ?? input) - input);
  return saved / 1_000_000;
}

export function makeUsage(counts: TokenCounts, pricing: ModelPricing | null, estimated: boolean): TokenUsage {
  const saved = cacheSavingsUsd(counts, pricing);
  return {
    inputTokens: counts.inputTokens,
    outputTokens: counts.outputTokens,
    ...(counts.cacheReadTokens ? { cacheReadTokens: counts.cacheReadTokens } : {}),
    ...(counts.cacheWriteTokens ? { cacheWriteTokens: counts.cacheWriteTokens } : {}),
    ...(saved !== undefined && saved !== 0 ? { savedUsd: saved } : {}),
    costUsd: computeCostUsd(counts, pricing),
    ...(estimated ? { estimated: true } : {}),
  };
}
