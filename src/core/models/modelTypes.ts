// The one small interface every model provider implements. The loop and the sub-call bridge
// only ever see this, so tests and other providers plug in through the front door.
import type { TokenUsage } from './tokenUsageSchema';

/**
 * 'vscode' is a model VS Code offers through its Language Model API (Copilot's or another extension's):
 * its client lives in src/vscode/ and exists only inside the editor; the core only names it.
 */
/**
 * 'mcp' is the model of the MCP client that started `rlm mcp`, reached through MCP sampling (the client
 * asks its user and runs its own model): its client lives in src/cli/mcp/ and exists only there.
 */
export type ProviderKind = 'openai' | 'anthropic' | 'vscode' | 'mcp';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** USD per million tokens. */
export interface ModelPricing {
  inputPerMTok: number;
  outputPerMTok: number;
  cacheReadPerMTok?: number;
  cacheWritePerMTok?: number;
  /**
   * The price of a provider batch request against an ordinary one (0.5: half). Default: 0.5 on the
   * official OpenAI and Anthropic APIs, 1 elsewhere.
   */
  batchPriceFactor?: number;
}

export interface ModelConfig {
  provider: ProviderKind;
  /** Empty or undefined means the provider's official endpoint. */
  baseUrl?: string;
  model: string;
  /** Never logged, never written to a trajectory. */
  apiKey?: string;
  /** The model's context window in tokens, used to refuse over-size sub-call prompts before sending. */
  contextWindowTokens?: number;
  /** Overrides the built-in price table. */
  pricing?: ModelPricing;
  /** Per-request timeout in ms (the SDK's own timeout). */
  timeoutMs?: number;
  /** Retries on 429/5xx, done by the SDK with its back-off and Retry-After handling. */
  maxRetries?: number;
  /** A call fails when its server sends no bytes for this long (default 60 s; see responseGuard.ts). */
  stallTimeoutMs?: number;
  /** A response larger than this is cut off and the call fails (default 64 MiB). */
  maxResponseBytes?: number;
  /** A call fails when its response is not complete this long after the request, however it trickles (default 600 s). */
  responseTimeoutMs?: number;
}

// Declared once, as a schema (tokenUsageSchema.ts), and inferred from it.
export type { TokenUsage };

export interface CompleteOptions {
  signal?: AbortSignal;
  maxTokens?: number;
  temperature?: number;
  /** Streams when given: called with each text delta as it arrives. */
  onDelta?: (text: string) => void;
  /** Stop sequences, where the provider supports them. */
  stop?: string[];
  /** Prompt-caching hints; providers without explicit caching ignore what they cannot use. */
  cache?: PromptCacheHints;
}

/**
 * Where a request shares a prefix with others, so a provider that caches prompts can bill it at its
 * cache rate. Anthropic caches only what is marked (`cache_control`); OpenAI caches long prefixes on its
 * own and groups them by `prompt_cache_key`.
 */
export interface PromptCacheHints {
  /** A conversation that grows turn by turn (the root's): mark the system prompt and the newest message. */
  conversation?: boolean;
  /** The first user message's first N characters are shared with other calls (a batch over one slice). */
  sharedPrefixChars?: number;
  /** Groups requests that share a prefix (OpenAI's `prompt_cache_key`; sent to the official API only). */
  key?: string;
}

export interface Completion {
  text: string;
  usage: TokenUsage;
  /** Normalised: 'stop' | 'length' | 'content_filter' | 'tool' | other provider value. */
  finishReason: string;
  /** The model that answered, as the server reports it. */
  model: string;
  latencyMs: number;
}

export interface ModelClient {
  readonly provider: ProviderKind;
  readonly model: string;
  /** The endpoint in use, for messages (never includes the key). */
  readonly endpoint: string;
  readonly contextWindowTokens?: number;
  complete(messages: ChatMessage[], options?: CompleteOptions): Promise<Completion>;
  /** What a call of these sizes would cost at this model's price; null when the price is unknown. */
  estimateCostUsd?(inputTokens: number, outputTokens: number): number | null;
  /** The provider's batch API (OpenAI Batch API, Anthropic Message Batches), where the client has one. */
  readonly batches?: BatchApi;
}

// Provider batch APIs (OpenAI's Batch API, Anthropic's Message Batches) behind one small interface:
// a batch is created once, polled until it ends, and its results read back by custom id. The loop
// (core/loop/subCallBatch.ts) is the only user; each SDK client offers one through `batches`.

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
  /** The provider's own words when the batch failed as a whole (OpenAI `status: failed`, its `errors.data`). */
  failure?: string;
}

/** An ended batch's results as read: the outcomes in the provider's order, and how many lines were not JSON objects. */
export interface BatchResults {
  outcomes: BatchOutcome[];
  malformedLines: number;
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
  results(snapshot: BatchSnapshot, signal?: AbortSignal): Promise<BatchResults>;
  /** Asks the provider to stop the batch; requests already done stay done (and billed). */
  cancel(id: string): Promise<BatchSnapshot>;
  /** The batch price of a call of these sizes; null when the price is unknown. */
  estimateCostUsd(inputTokens: number, outputTokens: number): number | null;
}
