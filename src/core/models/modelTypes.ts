// The one small interface every model provider implements. The loop and the sub-call bridge
// only ever see this, so tests and other providers plug in through the front door.

export type ProviderKind = 'openai' | 'anthropic';

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
}

export interface TokenUsage {
  /** All prompt tokens, including those read from or written to a prompt cache. */
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** null when the model's price is unknown: never shown as $0. Local servers are a known $0. */
  costUsd: number | null;
  /** True when the server reported no usage and the counts are estimates (~4 characters per token). */
  estimated?: boolean;
}

export interface CompleteOptions {
  signal?: AbortSignal;
  maxTokens?: number;
  temperature?: number;
  /** Streams when given: called with each text delta as it arrives. */
  onDelta?: (text: string) => void;
  /** Stop sequences, where the provider supports them. */
  stop?: string[];
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
}
