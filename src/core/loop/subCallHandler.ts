// Answers Python's llm_query / rlm_query bridge calls for one run: picks the model, estimates a large
// batch before it is sent, and sends the prompts as one provider batch (subCallBatch.ts) or one by one
// with bounded concurrency (subCalls.ts). It sits above both, so neither imports the other's caller.
import { estimateTokens } from '../models/tokenEstimate';
import type { BridgeCall, BridgeHandler, BridgeResult } from '../repl/replTypes';
import type { ModelClient } from '../models/modelTypes';
import type { BatchApi } from '../models/modelTypes';
import { subCallKey } from '../models/subCallCache';
import { boundedMap, linkSignals } from './boundedMap';
import { CHILD_RUN_CONCURRENCY } from './limits';
import { BatchCostLimitError } from './loopErrors';
import { runProviderBatch, wantsProviderBatch } from './subCallBatch';
import { chooseClient, errorText, plainRlmQueryPrompt, runLlmQuery, runRlmQuery, sayDepthLimit, subCallRequest } from './subCalls';
import type { Item, SubCallScope } from './subCalls';

/** The REPL side is untrusted: a slice is kept only when it is a well-formed range inside its prompt. */
function sliceOf(call: BridgeCall, i: number, prompt: string): { start: number; end: number } | undefined {
  if (call.kind !== 'llm_query' || !Array.isArray(call.slices)) return undefined;
  const range: unknown = call.slices[i];
  if (!Array.isArray(range) || range.length !== 2) return undefined;
  const [start, end] = range as unknown[];
  if (!Number.isInteger(start) || !Number.isInteger(end)) return undefined;
  const s = start as number;
  const e = end as number;
  return s >= 0 && s <= e && e <= prompt.length ? { start: s, end: e } : undefined;
}

export function createSubCallHandler(scope: SubCallScope): BridgeHandler {
  return async (call: BridgeCall, bridgeSignal: AbortSignal): Promise<BridgeResult> => {
    const linked = linkSignals([scope.runSignal, bridgeSignal]);
    try {
      const batchId = call.batched ? scope.tree.newId('batch') : undefined;
      const client = call.kind === 'llm_query' ? chooseClient(scope, call.model) : scope.tree.sub;
      const items: Item[] = call.prompts.map((prompt, i) => {
        const slice = sliceOf(call, i, prompt);
        return { prompt, context: call.kind === 'rlm_query' ? call.contexts[i] : undefined, ...(slice ? { slice } : {}) };
      });
      const concurrency = call.kind === 'rlm_query' ? Math.min(scope.tree.limits.subCallConcurrency, CHILD_RUN_CONCURRENCY) : scope.tree.limits.subCallConcurrency;
      // A batch over one slice with different questions shares the slice: marked, a provider that
      // caches prompts bills it once at full price and then at its cache rate.
      const shared = call.kind === 'llm_query' && batchId && items.length > 1 ? sharedPrefixChars(call.prompts) : 0;
      const cache = shared >= SHARED_PREFIX_MIN_CHARS ? { sharedPrefixChars: shared, key: batchId } : undefined;
      const providerBatch = call.kind === 'llm_query' && batchId !== undefined && wantsProviderBatch(scope, client, call.prompts);
      if (call.kind === 'llm_query' && batchId) {
        const refusal = estimateBatch(scope, batchId, call.prompts, client, providerBatch ? client.batches : undefined);
        if (refusal) return call.prompts.map(() => refusal);
      }
      if (providerBatch && batchId) {
        return await runProviderBatch(scope, client, call.prompts, batchId, linked.signal, cache, items.map((item) => item.slice));
      }
      // An rlm_query_batched whose calls are plain model calls (past the depth limit) goes as a provider batch too.
      const plain = call.kind === 'rlm_query' && batchId ? items.map((item) => plainRlmQueryPrompt(scope, item)) : [];
      if (batchId && plain.length > 0 && plain.every((p) => p !== undefined) && wantsProviderBatch(scope, client, plain)) {
        for (let i = 0; i < plain.length; i++) sayDepthLimit(scope);
        const refusal = estimateBatch(scope, batchId, plain, client, client.batches);
        if (refusal) return plain.map(() => refusal);
        return await runProviderBatch(scope, client, plain, batchId, linked.signal, undefined, plain.map(() => undefined), 'depth-limit');
      }
      return await boundedMap(
        items,
        concurrency,
        linked.signal,
        (item, index) => {
          const position = batchId ? { batchId, batchIndex: index, batchSize: items.length } : {};
          return call.kind === 'rlm_query' ? runRlmQuery(scope, item, position, linked.signal) : runLlmQuery(scope, item.prompt, position, linked.signal, client, undefined, cache, item.slice);
        },
        () => '[ERROR] cancelled before it started',
      );
    } finally {
      linked.dispose();
    }
  };
}

/** A shared head shorter than this (about 1,024 tokens, the providers' minimum) is not worth a mark. */
const SHARED_PREFIX_MIN_CHARS = 4096;

/** Characters every prompt starts with, cut back to a line end so the mark falls between lines. */
function sharedPrefixChars(prompts: readonly string[]): number {
  const first = prompts[0] ?? '';
  let n = first.length;
  for (const p of prompts) {
    n = Math.min(n, p.length);
    let i = 0;
    while (i < n && p.charCodeAt(i) === first.charCodeAt(i)) i++;
    n = i;
    if (n < SHARED_PREFIX_MIN_CHARS) return 0;
  }
  const lineEnd = first.lastIndexOf('\n', n - 1);
  return lineEnd >= SHARED_PREFIX_MIN_CHARS ? lineEnd + 1 : n;
}

/** A batch with more prompts, or more characters, than this is estimated before it is sent. */
const ESTIMATED_BATCH_PROMPTS = 50;
const ESTIMATED_BATCH_CHARS = 1_000_000;

/**
 * Says what a large batch will cost before it is sent, and refuses it (every item gets the error) when
 * the estimate would take the run past its cost limit: checked before the money is spent, not after.
 */
function estimateBatch(scope: SubCallScope, batchId: string, prompts: readonly string[], client: ModelClient, batchApi?: BatchApi): string | undefined {
  const chars = prompts.reduce((n, p) => n + p.length, 0);
  if (prompts.length <= ESTIMATED_BATCH_PROMPTS && chars <= ESTIMATED_BATCH_CHARS) return undefined;
  const { tree } = scope;
  // Prompts the cache will answer cost nothing: only the ones that will be sent are estimated.
  const cacheUse = tree.subCallCache;
  const sent = cacheUse?.mode === 'use' ? prompts.filter((p) => !cacheUse.cache.has(subCallKey(subCallRequest(client, p, tree.limits.subCallMaxTokens)))) : prompts;
  const inputTokens = sent.reduce((n, p) => n + estimateTokens(p), 0);
  const outputTokens = sent.length * Math.ceil(tree.limits.subCallMaxTokens / 4);
  // Going as a provider batch, it is estimated at the batch price (and the event says so).
  const estimated = (batchApi ? batchApi.estimateCostUsd(inputTokens, outputTokens) : client.estimateCostUsd?.(inputTokens, outputTokens)) ?? null;
  const max = tree.limits.maxCostUsd;
  const spent = tree.budget.rootMeter.knownCostUsd;
  const refused = estimated !== null && max !== undefined && spent + estimated > max;
  tree.events.emit({ type: 'batch.estimated', runId: scope.runId, cellId: scope.cellId(), batchId, prompts: prompts.length, chars, estimatedCostUsd: estimated, ...(refused ? { refused: true as const } : {}), ...(batchApi ? { batchPrice: true as const } : {}) });
  if (!refused) return undefined;
  return errorText(new BatchCostLimitError(prompts.length, estimated, spent, max));
}
