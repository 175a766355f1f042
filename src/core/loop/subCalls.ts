// One sub-call of a run (subCallHandler.ts dispatches the bridge calls here): a per-call timeout,
// max_tokens and prompt-size check, the run-wide cap, and recursion into child runs (or the recorded
// depth fallback). Failures go back to Python as "[ERROR] ..." strings.
import type { ContextSource } from '../context/contextTypes';
import { estimateTokens } from '../models/tokenEstimate';
import type { ModelClient, PromptCacheHints, TokenUsage } from '../models/modelTypes';
import { subCallKey } from '../models/subCallCache';
import type { SubCallRequest } from '../models/subCallCache';
import { linkSignals } from './boundedMap';
import { childContextSource } from './childContext';
import { modelRef } from './limits';
import { EmptyPromptError, errorKind, errorMessage, PromptTooLargeError, RunCancelledError, SubCallLimitError, SubCallTimeoutError } from './loopErrors';
import type { RunResult } from './loopTypes';
import type { RunTree } from './runTree';
import { UsageMeter, ZERO_USAGE } from './usageMeter';

export interface ChildRunInput {
  runId: string;
  question: string;
  context: ContextSource;
  depth: number;
  meter: UsageMeter;
  signal: AbortSignal;
  parent: { runId: string; cellId: string; callId: string };
}

export interface SubCallScope {
  tree: RunTree;
  runId: string;
  /** Depth of the run making the calls (root = 0). */
  depth: number;
  meter: UsageMeter;
  runSignal: AbortSignal;
  /** The cell running now: bridge calls only happen while a cell runs. */
  cellId: () => string;
  /** Set for a user's cell: its sub-calls are recorded as the user's. */
  author?: 'user';
  startChild: (input: ChildRunInput) => Promise<RunResult>;
}

export interface Item {
  prompt: string;
  context: unknown;
  /** sub_query's slice within the prompt, when the call said where and it lies within it. */
  slice?: { start: number; end: number };
}

/** One llm_query as the provider receives it: what its cache key is made of. */
export function subCallRequest(client: ModelClient, prompt: string, maxTokens: number): SubCallRequest {
  return { client, messages: [{ role: 'user', content: prompt }], params: { maxTokens } };
}

type BatchPosition = { batchId?: string; batchIndex?: number; batchSize?: number };

/** llm_query(prompt, model=...) may name the root or the sub model; any other name is answered by the sub model, visibly. */
export function chooseClient(scope: SubCallScope, requested: string | null | undefined): ModelClient {
  const { tree } = scope;
  if (!requested || requested === tree.sub.model) return tree.sub;
  if (requested === tree.root.model) return tree.root;
  tree.events.emit({
    type: 'fallback',
    runId: scope.runId,
    kind: 'model-not-configured',
    detail: `llm_query asked for model "${requested}", which is not configured; answered by the sub model ${tree.sub.model}`,
  });
  return tree.sub;
}

/** An llm_query that was counted, recorded as started and not answered by the cache: it waits for its answer. */
export interface OpenLlmQuery {
  callId: string;
  request: SubCallRequest;
  cacheKey?: string;
  /** Records the outcome (subcall.finished) and returns what Python gets. */
  finish(response: string | undefined, error: unknown, usage: TokenUsage): string;
}

/**
 * The part of an llm_query every way of sending it shares: the empty-prompt and sub-call limit checks,
 * subcall.started, the sub-call cache, and the prompt-size check. Returns Python's string when that
 * already answers the call, or the open call to send.
 */
export function beginLlmQuery(
  scope: SubCallScope,
  prompt: string,
  position: BatchPosition,
  client: ModelClient,
  fallback?: 'depth-limit',
  slice?: { start: number; end: number },
): { done: string } | { open: OpenLlmQuery } {
  const { tree } = scope;
  // The prelude refuses empty prompts in Python; a cell writing to the REPL device itself meets this.
  if (!prompt.trim()) return { done: errorText(new EmptyPromptError()) };
  if (!tree.budget.reserveSubCall()) return { done: errorText(new SubCallLimitError(tree.limits.maxSubCalls)) };
  const callId = tree.newId('call');
  scope.meter.addSubCall();
  tree.events.emit({
    type: 'subcall.started',
    runId: scope.runId,
    callId,
    cellId: scope.cellId(),
    kind: fallback ? 'rlm_query' : 'llm_query',
    ...position,
    depth: scope.depth + 1,
    model: modelRef(client),
    prompt,
    ...(slice ? { slice } : {}),
    ...(scope.author ? { author: scope.author } : {}),
  });
  const started = tree.now();
  const finish = (response: string | undefined, error: unknown, usage: TokenUsage): string => {
    tree.events.emit({
      type: 'subcall.finished',
      runId: scope.runId,
      callId,
      ...(response !== undefined ? { response } : {}),
      ...(error !== undefined ? { error: { kind: errorKind(error), message: errorMessage(error) } } : {}),
      usage,
      latencyMs: tree.now() - started,
      ...(fallback ? { fallback } : {}),
      ...(usage.fromCache ? { cached: true as const } : {}),
    });
    return response ?? errorText(error);
  };
  const request = subCallRequest(client, prompt, tree.limits.subCallMaxTokens);
  const cacheUse = tree.subCallCache;
  const cacheKey = cacheUse ? subCallKey(request) : undefined;
  const hit = cacheKey && cacheUse?.mode === 'use' ? cacheUse.cache.lookup(cacheKey) : undefined;
  if (hit) {
    // No request: the stored answer, at no cost; what it cost the first time is what it saved now.
    const usage: TokenUsage = { inputTokens: 0, outputTokens: 0, costUsd: 0, fromCache: true, ...(hit.costUsd ? { savedUsd: hit.costUsd } : {}) };
    scope.meter.addUsage(usage);
    return { done: finish(hit.text, undefined, usage) };
  }
  const window = client.contextWindowTokens;
  const estimated = estimateTokens(prompt);
  // Room is kept for the reply: max_tokens, but never more than half the window.
  const replyRoom = window === undefined ? 0 : Math.min(tree.limits.subCallMaxTokens, Math.floor(window / 2));
  if (window !== undefined && estimated + replyRoom > window) {
    return { done: finish(undefined, new PromptTooLargeError(estimated, window, client.model), ZERO_USAGE) };
  }
  return { open: { callId, request, ...(cacheKey ? { cacheKey } : {}), finish } };
}

export async function runLlmQuery(
  scope: SubCallScope,
  prompt: string,
  position: BatchPosition,
  signal: AbortSignal,
  client: ModelClient,
  fallback?: 'depth-limit',
  cache?: PromptCacheHints,
  slice?: { start: number; end: number },
): Promise<string> {
  const begun = beginLlmQuery(scope, prompt, position, client, fallback, slice);
  if ('done' in begun) return begun.done;
  return sendLlmQuery(scope, begun.open, signal, client, cache);
}

/** Sends one open llm_query as an ordinary request, under the sub-call timeout. */
export async function sendLlmQuery(scope: SubCallScope, open: OpenLlmQuery, signal: AbortSignal, client: ModelClient, cache?: PromptCacheHints): Promise<string> {
  const { tree } = scope;
  const timed = linkSignals([signal], tree.limits.subCallTimeoutMs, () => new SubCallTimeoutError(tree.limits.subCallTimeoutMs));
  try {
    const completion = await client.complete(open.request.messages, {
      signal: timed.signal,
      maxTokens: tree.limits.subCallMaxTokens,
      ...(cache ? { cache } : {}),
    });
    scope.meter.addUsage(completion.usage);
    if (open.cacheKey) tree.subCallCache?.cache.store(open.cacheKey, completion);
    return open.finish(completion.text, undefined, completion.usage);
  } catch (error) {
    // The SDK reports an abort as its own error type; say why the call was aborted instead.
    const why = timed.signal.reason as unknown;
    const reason = timed.signal.aborted ? (why instanceof Error ? why : new RunCancelledError('sub-call aborted')) : error;
    return open.finish(undefined, reason, ZERO_USAGE);
  } finally {
    timed.dispose();
  }
}

export async function runRlmQuery(scope: SubCallScope, item: Item, position: BatchPosition, signal: AbortSignal): Promise<string> {
  const { tree } = scope;
  const childDepth = scope.depth + 1;
  const plain = plainRlmQueryPrompt(scope, item);
  if (plain !== undefined) {
    sayDepthLimit(scope);
    return runLlmQuery(scope, plain, position, signal, tree.sub, 'depth-limit');
  }
  const context = childContextSource(item.context, item.prompt);
  if (!item.prompt.trim()) return errorText(new EmptyPromptError());
  if (!tree.budget.reserveSubCall()) return errorText(new SubCallLimitError(tree.limits.maxSubCalls));
  const callId = tree.newId('call');
  const childRunId = tree.newId('run');
  const cellId = scope.cellId();
  scope.meter.addSubCall();
  tree.events.emit({
    type: 'subcall.started',
    runId: scope.runId,
    callId,
    cellId,
    kind: 'rlm_query',
    ...position,
    depth: childDepth,
    model: modelRef(tree.root),
    prompt: item.prompt,
    ...(scope.author ? { author: scope.author } : {}),
  });
  tree.events.emit({ type: 'child.started', runId: scope.runId, callId, childRunId });
  const started = tree.now();
  const result = await scope.startChild({
    runId: childRunId,
    question: item.prompt,
    context,
    depth: childDepth,
    meter: new UsageMeter(started, scope.meter),
    signal,
    parent: { runId: scope.runId, cellId, callId },
  });
  const ok = result.answer !== undefined && (result.status === 'completed' || result.status === 'forced');
  const response = ok ? result.answer : undefined;
  const error = ok ? undefined : { kind: result.error?.kind ?? (result.status === 'cancelled' ? 'cancelled' : 'internal'), message: result.error?.message ?? `the helper run ended (${result.status}) without an answer` };
  tree.events.emit({
    type: 'child.finished',
    runId: scope.runId,
    callId,
    childRunId,
    status: result.status,
    ...(result.answer !== undefined ? { answer: result.answer } : {}),
  });
  // The child's own events carry its usage; repeating it here would count it twice in the tree.
  tree.events.emit({
    type: 'subcall.finished',
    runId: scope.runId,
    callId,
    ...(response !== undefined ? { response } : {}),
    ...(error ? { error } : {}),
    usage: ZERO_USAGE,
    latencyMs: tree.now() - started,
  });
  if (response !== undefined) return response;
  // The helper's last output is passed on as what it is: findings, not an answer.
  const partial = result.partial ? ` Its partial findings (not an answer): ${result.partial.slice(0, 2000)}` : '';
  return `[ERROR] ${error?.kind ?? 'internal'}: the helper run ended without an answer: ${error?.message ?? result.status}.${partial}`;
}

/**
 * The one place that decides whether an rlm_query starts a child run or is a plain model call: past
 * the depth limit it is a plain call, and this is its prompt (undefined: a child run). The handler
 * asks it too, so an rlm_query_batched of plain calls can go as a provider batch.
 */
export function plainRlmQueryPrompt(scope: SubCallScope, item: Item): string | undefined {
  if (scope.depth + 1 <= scope.tree.limits.maxDepth) return undefined;
  return fallbackPrompt(item, childContextSource(item.context, item.prompt));
}

/** The fallback event of an rlm_query answered by a plain call at the depth limit. */
export function sayDepthLimit(scope: SubCallScope): void {
  const childDepth = scope.depth + 1;
  scope.tree.events.emit({
    type: 'fallback',
    runId: scope.runId,
    kind: 'depth-limit',
    detail: `rlm_query at depth ${childDepth} exceeds max depth ${scope.tree.limits.maxDepth}; answered by a plain llm_query`,
  });
}

/** At max depth, the prompt and the child's context go to the sub model as one message. */
function fallbackPrompt(item: Item, context: ContextSource): string {
  if (item.context === null || item.context === undefined) return item.prompt;
  const text =
    context.kind === 'text'
      ? typeof context.text === 'string'
        ? context.text
        : new TextDecoder().decode(context.text)
      : context.kind === 'plan'
        ? '' // a child's context comes from Python, never from files on disk
        : context.files.map((f) => `--- ${f.path}\n${typeof f.content === 'string' ? f.content : new TextDecoder().decode(f.content)}`).join('\n');
  return `${item.prompt}\n\nContext:\n${text}`;
}

/** What Python gets for a failed item: "[ERROR] <kind>: <message>", the kind stable (docs/rlm-contract.md). */
export function errorText(error: unknown): string {
  return `[ERROR] ${errorKind(error)}: ${errorMessage(error)}`;
}
