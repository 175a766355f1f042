// What a model call used and cost, declared once as a schema: TokenUsage (modelTypes.ts re-exports it)
// is inferred from it, and recorded runs are checked against it (trajectory/eventSchemas.ts).
import * as z from 'zod';
import { num, olderFiles } from '../recordFields';

export const tokenUsageSchema = z.object({
  /** All prompt tokens, including those read from or written to a prompt cache. */
  inputTokens: num(),
  outputTokens: num(),
  cacheReadTokens: num().optional(),
  cacheWriteTokens: num().optional(),
  /** null when the model's price is unknown: never shown as $0. Local servers are a known $0. */
  costUsd: olderFiles(num().nullable()),
  /**
   * What caching saved against the full input price: cache reads at their discount, less the premium of
   * cache writes (so it can be negative on a first turn); a call answered from the sub-call cache saves
   * its whole cost. Absent when nothing was cached or the price is unknown.
   */
  savedUsd: num().optional(),
  /** The call was answered from the sub-call cache: no request was sent. */
  fromCache: z.literal(true).optional(),
  /**
   * The call is paid for by the user's subscription (a VS Code language model such as Copilot's), which
   * gives no price: costUsd is 0 and readers say "included in your plan", never "$0.00".
   */
  includedInPlan: z.literal(true).optional(),
  /** Billed at the provider's batch price (a provider batch; savedUsd includes the discount). */
  batchPrice: z.literal(true).optional(),
  /** True when the server reported no usage and the counts are estimates (~4 characters per token). */
  estimated: z.boolean().optional(),
});

export type TokenUsage = z.infer<typeof tokenUsageSchema>;
