// Built-in prices in USD per million tokens (standard tier, prompts under any long-context surcharge
// threshold). Compiled 2025-11; updated 2026-12: the Anthropic rows from Anthropic's pricing page
// (platform.claude.com/docs/en/about-claude/pricing), the OpenAI gpt-5.2 rows from two reports of
// OpenAI's pricing that agree. Newer models whose price could not be confirmed are left out, so they
// show an unknown cost rather than a guessed one.
// Prices change; anything missing or stale can be set per model with ModelConfig.pricing, and a
// model not listed here has an UNKNOWN cost (null), never $0.
// Keys are model ids; a key also matches its dated snapshots and aliases ("-20250514",
// "-2024-08-06", "-latest"), but not a different model that merely starts the same way.
import type { ModelPricing } from './modelTypes';

const p = (inputPerMTok: number, outputPerMTok: number, cacheReadPerMTok?: number, cacheWritePerMTok?: number): ModelPricing => ({
  inputPerMTok,
  outputPerMTok,
  ...(cacheReadPerMTok !== undefined ? { cacheReadPerMTok } : {}),
  ...(cacheWritePerMTok !== undefined ? { cacheWritePerMTok } : {}),
});

/** OpenAI: cached input is billed at the cache-read price; there is no cache-write charge. */
export const OPENAI_PRICES: Record<string, ModelPricing> = {
  'gpt-5': p(1.25, 10, 0.125),
  'gpt-5-mini': p(0.25, 2, 0.025),
  'gpt-5-nano': p(0.05, 0.4, 0.005),
  'gpt-5-chat-latest': p(1.25, 10, 0.125),
  'gpt-5.1': p(1.25, 10, 0.125),
  'gpt-5.2': p(1.75, 14, 0.175),
  'gpt-5.2-pro': p(21, 168),
  'gpt-4.1': p(2, 8, 0.5),
  'gpt-4.1-mini': p(0.4, 1.6, 0.1),
  'gpt-4.1-nano': p(0.1, 0.4, 0.025),
  'gpt-4o': p(2.5, 10, 1.25),
  'gpt-4o-2024-05-13': p(5, 15),
  'gpt-4o-mini': p(0.15, 0.6, 0.075),
  'gpt-4-turbo': p(10, 30),
  'gpt-4': p(30, 60),
  'gpt-3.5-turbo': p(0.5, 1.5),
  o1: p(15, 60, 7.5),
  'o1-mini': p(1.1, 4.4, 0.55),
  o3: p(2, 8, 0.5),
  'o3-mini': p(1.1, 4.4, 0.55),
  'o3-pro': p(20, 80),
  'o4-mini': p(1.1, 4.4, 0.275),
};

/** Anthropic: cache reads at 0.1x input, 5-minute cache writes at 1.25x input. */
export const ANTHROPIC_PRICES: Record<string, ModelPricing> = {
  'claude-fable-5-1': p(10, 50, 0.25, 12.5),
  'claude-mythos-5-1': p(10, 50, 0.25, 12.5),
  'claude-fable-5': p(10, 50, 1, 12.5),
  'claude-mythos-5': p(10, 50, 1, 12.5),
  'claude-opus-5': p(5, 25, 0.5, 6.25),
  'claude-opus-4-8': p(5, 25, 0.5, 6.25),
  'claude-opus-4-7': p(5, 25, 0.5, 6.25),
  'claude-opus-4-6': p(5, 25, 0.5, 6.25),
  'claude-opus-4-5': p(5, 25, 0.5, 6.25),
  'claude-opus-4-1': p(15, 75, 1.5, 18.75),
  'claude-opus-4': p(15, 75, 1.5, 18.75),
  'claude-opus-4-0': p(15, 75, 1.5, 18.75),
  'claude-sonnet-4-6': p(3, 15, 0.3, 3.75),
  'claude-sonnet-4-5': p(3, 15, 0.3, 3.75),
  'claude-sonnet-4': p(3, 15, 0.3, 3.75),
  'claude-sonnet-4-0': p(3, 15, 0.3, 3.75),
  'claude-haiku-4-5': p(1, 5, 0.1, 1.25),
  'claude-3-7-sonnet': p(3, 15, 0.3, 3.75),
  'claude-3-5-sonnet': p(3, 15, 0.3, 3.75),
  'claude-3-5-haiku': p(0.8, 4, 0.08, 1),
  'claude-3-opus': p(15, 75, 1.5, 18.75),
  'claude-3-haiku': p(0.25, 1.25, 0.03, 0.3),
};
