// The totals rolled up at every node of a run tree. The core's tree (src/core/trajectory/treeTypes.ts)
// and the trajectory view's protocol carry the same numbers, so the type is declared once, here,
// where the webview (which imports only src/shared/) can see it too.
export interface NodeTotals {
  inputTokens: number;
  outputTokens: number;
  /** Sum of known costs. */
  costUsd: number;
  /** Some contributing call had an unknown price. */
  costUnknown: boolean;
  /** Some contributing call was paid by the user's plan (a VS Code language model). */
  includedInPlan?: boolean;
  subCalls: number;
  errors: number;
  /** Wall time of this node (end - start), in ms. */
  wallTimeMs: number;
  /** Prompt tokens read from / written to the providers' prompt caches (absent when none). */
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** What caching saved against full price, known prices only (absent when nothing was cached). */
  savedUsd?: number;
  /** Sub-calls answered from the sub-call cache, with no request sent. */
  cachedSubCalls?: number;
}
