// Turns token counts into USD. Three outcomes, kept distinct on purpose: a configured or listed
// price gives a number; a local endpoint is a known $0; anything else is null (unknown), which the
// UI shows as "cost unknown" rather than a misleading $0.
import { isLocalHost } from './endpoint';
import type { ModelConfig, ModelPricing, TokenUsage } from './modelTypes';
import { ANTHROPIC_PRICES, OPENAI_PRICES } from './priceTable';

const FREE: ModelPricing = { inputPerMTok: 0, outputPerMTok: 0, cacheReadPerMTok: 0, cacheWritePerMTok: 0 };

// Dated snapshots and aliases of a listed model: "-20250514", "-2024-08-06", "-latest", "@20250514" (Vertex).
const SNAPSHOT_SUFFIX = /^(?:[-@](?:\d{8}|\d{4}-\d{2}-\d{2})|-latest)$/;

/** Longest key first, so "gpt-4o-2024-05-13" wins over "gpt-4o". */
function byLongestKey(table: Record<string, ModelPricing>): Array<[string, ModelPricing]> {
  return Object.entries(table)
    .map(([key, pricing]): [string, ModelPricing] => [key.trim().toLowerCase(), pricing])
    .sort((a, b) => b[0].length - a[0].length);
}

const ALL_PRICES = byLongestKey({ ...OPENAI_PRICES, ...ANTHROPIC_PRICES });

function findIn(entries: Array<[string, ModelPricing]>, model: string): ModelPricing | undefined {
  const full = model.trim().toLowerCase();
  const id = full.replace(/^.*\//, '');
  for (const [key, pricing] of entries) {
    // A user's key may name the router form ("openrouter/x") exactly; listed keys never carry one.
    if (id === key || full === key) return pricing;
    if (id.startsWith(key) && SNAPSHOT_SUFFIX.test(id.slice(key.length))) return pricing;
  }
  return undefined;
}

/** The listed price of a model id, or undefined. Router prefixes ("openai/gpt-4o") are ignored. */
export function lookupPricing(model: string): ModelPricing | undefined {
  return findIn(ALL_PRICES, model);
}

/** Prices the user set (e.g. the rlm.prices setting), keyed by model id and matched like the built-in table. */
export type UserPriceTable = Record<string, ModelPricing>;

/**
 * The user's price for `model`, or undefined. Callers pass it as ModelConfig.pricing, so it wins over
 * the built-in table and over the local-server $0 (someone who set a price for a model means it).
 */
export function userPricing(model: string, table: UserPriceTable | undefined): ModelPricing | undefined {
  if (!table) return undefined;
  const entries = byLongestKey(table);
  const found = findIn(entries, model);
  if (found) validatePricing(found, model);
  return found;
}

/** The price a run will charge for `model` at `baseUrl`, as the UI should describe it before any call. */
export function priceStatus(model: string, baseUrl: string | undefined, table?: UserPriceTable): 'priced' | 'local' | 'unknown' {
  if (userPricing(model, table)) return 'priced';
  if (isNoChargeEndpoint(baseUrl)) return 'local';
  return lookupPricing(model) ? 'priced' : 'unknown';
}

const PRIVATE_V4 = [/^10\./, /^192\.168\./, /^172\.(1[6-9]|2\d|3[01])\./, /^169\.254\./, /^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\./];

/**
 * True for a server with no per-token charge: this machine (localhost, 127.x, ::1) or the local
 * network (10/8, 172.16/12, 192.168/16, link-local, carrier-grade NAT, IPv6 unique-local and
 * link-local, *.local and *.lan names). An empty base URL is a provider's hosted API: charged.
 */
export function isNoChargeEndpoint(baseUrl: string | undefined): boolean {
  if (!baseUrl || baseUrl.trim() === '') return false;
  let host: string;
  try {
    host = new URL(baseUrl.trim()).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (isLocalHost(host)) return true;
  const bare = host.replace(/^\[|\]$/g, '');
  if (PRIVATE_V4.some((range) => range.test(bare))) return true;
  if (/^f[cd][0-9a-f]{2}:/.test(bare) || /^fe[89ab][0-9a-f]:/.test(bare)) return true;
  return bare.endsWith('.local') || bare.endsWith('.lan');
}

/** $0 per token: what a server on the local network costs when the user set no price for it. */
export const NO_CHARGE: ModelPricing = FREE;

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

/** True when the root and the sub model of a run are both served with no per-token charge. */
export function runIsNoCharge(config: { root: { baseUrl?: string }; sub: { baseUrl?: string } } | undefined): boolean {
  return config !== undefined && isNoChargeEndpoint(config.root.baseUrl) && isNoChargeEndpoint(config.sub.baseUrl);
}
