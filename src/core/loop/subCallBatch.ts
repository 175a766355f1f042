// An llm_query_batched sent as one provider batch (OpenAI Batch API, Anthropic Message Batches):
// each prompt is counted, recorded and checked against the sub-call cache as an ordinary sub-call;
// the rest go out as one batch (or are found in a batch the record of an interrupted run left),
// which is recorded at once, polled with back-off, and read back by custom id into prompt order.
// Stopping the run cancels the provider batch. A server without the endpoint gets ordinary calls.
import { BatchUnsupportedError } from '../models/batchTypes';
import { saneCounts } from '../models/batchDriver';
import type { BatchApi, BatchCounts, BatchOutcome, BatchRequest, BatchResults, BatchSnapshot } from '../models/modelTypes';
import type { ModelClient, PromptCacheHints } from '../models/modelTypes';
import { subCallKey } from '../models/subCallCache';
import { DEFAULT_BATCH_MIN_PROMPTS, matchRecordedBatch, providerBatchItemHash } from './batchOptions';
import { boundedMap, linkSignals } from './boundedMap';
import { LoopError, RunCancelledError } from './loopErrors';
import { beginLlmQuery, sendLlmQuery, subCallRequest } from './subCalls';
import type { OpenLlmQuery, SubCallScope } from './subCalls';
import { ZERO_USAGE } from './usageMeter';

const DEFAULT_POLL_FIRST_MS = 2_000;
const DEFAULT_POLL_MAX_MS = 60_000;
const DEFAULT_MAX_WAIT_MS = 25 * 60 * 60 * 1000;
/** Stop must not hang on a provider that does not answer the cancel. */
const CANCEL_WAIT_MS = 10_000;

/** A request of a provider batch that ended without an answer for it (errored, expired, cancelled, missing). */
class BatchItemError extends LoopError {
  constructor(
    override readonly errorKind: 'batch_errored' | 'batch_expired' | 'batch_canceled' | 'bad_response' | 'timeout',
    message: string,
  ) {
    super(message);
  }
}

/** Whether this llm_query_batched goes as a provider batch: the mode, the client, and how many prompts the cache leaves. */
export function wantsProviderBatch(scope: SubCallScope, client: ModelClient, prompts: readonly string[]): boolean {
  const runtime = scope.tree.batch;
  if (!runtime || !client.batches || runtime.unsupported.has(client.endpoint)) return false;
  const cacheUse = scope.tree.subCallCache;
  const maxTokens = scope.tree.limits.subCallMaxTokens;
  const toSend = new Set(prompts.filter((p) => p.trim() !== '' && !(cacheUse?.mode === 'use' && cacheUse.cache.has(subCallKey(subCallRequest(client, p, maxTokens))))));
  if (toSend.size === 0) return false;
  // Whatever the mode, prompts a recorded batch already holds are read from it: sending them again would bill them twice.
  if (matchRecordedBatch(runtime.options.recorded, client, [...toSend].map((p) => providerBatchItemHash(client, maxTokens, p)))) return true;
  if (runtime.options.mode === 'off') return false;
  return runtime.options.mode === 'always' || toSend.size >= (runtime.options.minPrompts ?? DEFAULT_BATCH_MIN_PROMPTS);
}

interface Pending {
  index: number;
  open: OpenLlmQuery;
  hash: string;
}

export async function runProviderBatch(
  scope: SubCallScope,
  client: ModelClient,
  prompts: readonly string[],
  batchId: string,
  signal: AbortSignal,
  cache: PromptCacheHints | undefined,
  slices: ReadonlyArray<{ start: number; end: number } | undefined>,
  /** 'depth-limit': the prompts are rlm_query_batched calls answered as plain model calls. */
  fallback?: 'depth-limit',
): Promise<string[]> {
  const { tree } = scope;
  const api = client.batches!;
  const runtime = tree.batch!;
  const maxTokens = tree.limits.subCallMaxTokens;
  const out = new Array<string>(prompts.length);
  const pending: Pending[] = [];
  prompts.forEach((prompt, index) => {
    const begun = beginLlmQuery(scope, prompt, { batchId, batchIndex: index, batchSize: prompts.length }, client, fallback, slices[index]);
    if ('done' in begun) out[index] = begun.done;
    else pending.push({ index, open: begun.open, hash: providerBatchItemHash(client, maxTokens, prompt) });
  });
  if (pending.length === 0) return out;

  // One request per distinct prompt: identical prompts of one call share its answer.
  const byHash = new Map<string, Pending[]>();
  for (const p of pending) byHash.set(p.hash, [...(byHash.get(p.hash) ?? []), p]);
  const hashes = [...byHash.keys()];
  const cellId = scope.cellId();
  const started = tree.now();
  const recorded = matchRecordedBatch(runtime.options.recorded, client, hashes);
  let snapshot: BatchSnapshot;
  let customIds: Map<string, string>;
  try {
    if (recorded) {
      customIds = new Map(hashes.map((h) => [h, recorded.items.get(h)!]));
      tree.events.emit({ type: 'batch.submitted', runId: scope.runId, cellId, batchId, provider: api.provider, endpoint: client.endpoint, model: client.model, providerBatchId: recorded.providerBatchId, items: hashes.map((h) => ({ customId: customIds.get(h)!, promptHash: h })), resumed: true });
      snapshot = await api.retrieve(recorded.providerBatchId, signal);
    } else {
      customIds = new Map(hashes.map((h, i) => [h, `q${i}-${h.slice(0, 24)}`]));
      const requests: BatchRequest[] = hashes.map((h) => ({ customId: customIds.get(h)!, messages: byHash.get(h)![0]!.open.request.messages, maxTokens }));
      snapshot = await api.create(requests, signal);
      // Recorded before any wait: an interrupted run's `rlm continue` polls this batch instead of sending it again.
      tree.events.emit({ type: 'batch.submitted', runId: scope.runId, cellId, batchId, provider: api.provider, endpoint: client.endpoint, model: client.model, providerBatchId: snapshot.id, items: hashes.map((h) => ({ customId: customIds.get(h)!, promptHash: h })) });
    }
  } catch (error) {
    if (error instanceof BatchUnsupportedError) {
      runtime.unsupported.add(client.endpoint);
      tree.events.emit({ type: 'fallback', runId: scope.runId, kind: 'batch-unsupported', detail: `${error.message}: llm_query_batched calls to it are sent as ordinary requests from now on` });
      await sendOrdinary(scope, pending, out, signal, client, cache);
      return out;
    }
    for (const p of pending) out[p.index] = p.open.finish(undefined, signal.aborted ? new RunCancelledError('stopped before the batch was sent') : error, ZERO_USAGE);
    return out;
  }

  // The loop knows how many requests it sent: a poll's total is that, whatever the server says.
  const sent = recorded ? recorded.items.size : hashes.length;
  const ended = await waitForBatch(scope, api, batchId, { ...snapshot, counts: saneCounts(snapshot.counts, sent) }, sent, started, signal);
  if (!ended.ok) {
    for (const p of pending) out[p.index] = p.open.finish(undefined, ended.error, ZERO_USAGE);
    return out;
  }
  let results: BatchResults;
  try {
    // A batch that failed as a whole ran nothing: there are no results to read, only its reason.
    results = ended.snapshot.failure !== undefined ? { outcomes: [], malformedLines: 0 } : await api.results(ended.snapshot, signal);
  } catch (error) {
    for (const p of pending) out[p.index] = p.open.finish(undefined, error, ZERO_USAGE);
    return out;
  }
  const byCustomId = firstByCustomId(results.outcomes);
  for (const [hash, items] of byHash) {
    const outcome = byCustomId.get(customIds.get(hash)!);
    items.forEach((p, i) => {
      if (!outcome) {
        out[p.index] = p.open.finish(undefined, missingResult(ended.snapshot, results.malformedLines), ZERO_USAGE);
      } else if ('error' in outcome) {
        out[p.index] = p.open.finish(undefined, new BatchItemError(outcome.error.kind, outcome.error.message), ZERO_USAGE);
      } else {
        // The request was billed once: a second identical prompt of the call shares its answer at no cost.
        const usage = i === 0 ? outcome.completion.usage : { ...ZERO_USAGE, ...(outcome.completion.usage.costUsd ? { savedUsd: outcome.completion.usage.costUsd } : {}) };
        scope.meter.addUsage(usage);
        if (i === 0 && p.open.cacheKey) tree.subCallCache?.cache.store(p.open.cacheKey, { ...outcome.completion, latencyMs: tree.now() - started });
        out[p.index] = p.open.finish(outcome.completion.text, undefined, usage);
      }
    });
  }
  return out;
}

/**
 * Results by custom id. The server decides what the files hold: a custom id given twice counts once
 * (its first line; a second could not be billed or answered again), and ids this batch did not send
 * are never looked up, so they answer nothing.
 */
function firstByCustomId(outcomes: readonly BatchOutcome[]): Map<string, BatchOutcome> {
  const out = new Map<string, BatchOutcome>();
  for (const o of outcomes) if (o.customId !== '' && !out.has(o.customId)) out.set(o.customId, o);
  return out;
}

/** The error of a request the ended batch gave no result for, with the batch's own reason when it failed as a whole. */
function missingResult(snapshot: BatchSnapshot, malformedLines: number): BatchItemError {
  if (snapshot.failure !== undefined) return new BatchItemError('batch_errored', `provider batch ${snapshot.id} failed (${snapshot.status}): ${snapshot.failure}`);
  const bad = malformedLines > 0 ? `; ${malformedLines} line(s) of its results were not JSON objects and were skipped` : '';
  return new BatchItemError('bad_response', `provider batch ${snapshot.id} ended (${snapshot.status}) without a result for this request${bad}`);
}

/** The server has no batch endpoint: the prompts go as ordinary calls, as without --batch. */
async function sendOrdinary(scope: SubCallScope, pending: Pending[], out: string[], signal: AbortSignal, client: ModelClient, cache: PromptCacheHints | undefined): Promise<void> {
  await boundedMap(
    pending,
    scope.tree.limits.subCallConcurrency,
    signal,
    async (p) => {
      out[p.index] = await sendLlmQuery(scope, p.open, signal, client, cache);
    },
    (p) => {
      out[p.index] = p.open.finish(undefined, new RunCancelledError('cancelled before it started'), ZERO_USAGE);
    },
  );
}

type Waited = { ok: true; snapshot: BatchSnapshot } | { ok: false; error: unknown };

/**
 * Polls until the batch ends, with back-off, recording each change. Stopping the run cancels the
 * provider batch and says what of it had already run (and is billed).
 */
async function waitForBatch(scope: SubCallScope, api: BatchApi, batchId: string, first: BatchSnapshot, sent: number, started: number, signal: AbortSignal): Promise<Waited> {
  const { tree } = scope;
  const options = tree.batch!.options;
  const sleep = options.sleep ?? abortableSleep;
  const maxWait = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  let wait = options.pollFirstMs ?? DEFAULT_POLL_FIRST_MS;
  const longest = options.pollMaxMs ?? DEFAULT_POLL_MAX_MS;
  let snapshot = first;
  let said = '';
  const progress = (s: BatchSnapshot): void => {
    const key = `${s.status}|${countsKey(s.counts)}`;
    if (key === said) return;
    said = key;
    tree.events.emit({ type: 'batch.progress', runId: scope.runId, batchId, providerBatchId: s.id, status: s.status, counts: s.counts, elapsedMs: tree.now() - started });
  };
  const deadline = linkSignals([signal], maxWait, () => new BatchItemError('timeout', `the provider batch did not end within ${Math.round(maxWait / 60_000)} minutes`));
  try {
    progress(snapshot);
    while (!snapshot.ended) {
      await sleep(wait, deadline.signal);
      if (deadline.signal.aborted) break;
      wait = Math.min(longest, Math.ceil(wait * 1.5));
      try {
        const polled = await api.retrieve(snapshot.id, deadline.signal);
        snapshot = { ...polled, counts: saneCounts(polled.counts, sent) };
      } catch (error) {
        if (deadline.signal.aborted) break;
        return { ok: false, error };
      }
      progress(snapshot);
    }
    if (!deadline.signal.aborted) {
      tree.events.emit({ type: 'batch.ended', runId: scope.runId, batchId, providerBatchId: snapshot.id, status: snapshot.status, counts: snapshot.counts, elapsedMs: tree.now() - started, ...(snapshot.failure !== undefined ? { failure: snapshot.failure } : {}) });
      return { ok: true, snapshot };
    }
    // Tracked: a Stop ends the cell at once, and the run waits for this before its run.finished.
    const cancelling = cancelBatch(scope, api, batchId, snapshot, sent, started, deadline.signal.reason);
    const runtime = tree.batch!;
    (runtime.cancelling ??= new Set()).add(cancelling);
    try {
      return { ok: false, error: await cancelling };
    } finally {
      runtime.cancelling.delete(cancelling);
    }
  } finally {
    deadline.dispose();
  }
}

/** Cancels the provider batch after a Stop (or the wait limit) and returns the error its items get. */
async function cancelBatch(scope: SubCallScope, api: BatchApi, batchId: string, last: BatchSnapshot, sent: number, started: number, reason: unknown): Promise<unknown> {
  const { tree } = scope;
  let snapshot = last;
  let failed = '';
  try {
    const answered = await withTimeout(api.cancel(last.id), CANCEL_WAIT_MS);
    snapshot = { ...answered, counts: saneCounts(answered.counts, sent) };
  } catch (error) {
    failed = ` (the cancel request failed: ${error instanceof Error ? error.message : String(error)}; the batch may still run and be billed)`;
  }
  tree.events.emit({ type: 'batch.ended', runId: scope.runId, batchId, providerBatchId: snapshot.id, status: snapshot.status, counts: snapshot.counts, elapsedMs: tree.now() - started, cancelled: true });
  const billed = snapshot.counts.succeeded + snapshot.counts.errored;
  const what = `provider batch ${snapshot.id} was cancelled${failed}; ${billed} of its ${snapshot.counts.total} request(s) had already run and are billed at the batch price`;
  if (reason instanceof BatchItemError) return new BatchItemError(reason.errorKind, `${reason.message}: ${what}`);
  return new RunCancelledError(`stopped while waiting for a provider batch: ${what}`);
}

function countsKey(c: BatchCounts): string {
  return `${c.total}/${c.succeeded}/${c.errored}/${c.expired}/${c.canceled}/${c.processing}`;
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([work, new Promise<T>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms)))]).finally(() => clearTimeout(timer));
}
