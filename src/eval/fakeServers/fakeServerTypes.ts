// Types of the fake model servers (see fakeModelServer.ts for the API and an example).
import type { ChatMessage } from '../../core/models/modelTypes';
import type { FakeBatchOptions, FakeBatchStore } from './fakeBatches';

export type FakeProtocol = 'openai' | 'anthropic';

/** What a `respond` function sees: the request normalised the same way for both protocols. */
export interface FakeModelRequest {
  /** 0-based position among the completion requests this server has received. */
  index: number;
  protocol: FakeProtocol;
  /** The conversation without system text (OpenAI system messages are moved to `system`). */
  messages: ChatMessage[];
  /** The system prompt: Anthropic's `system` field, or OpenAI's system/developer messages joined. */
  system?: string;
  model: string;
  /** `max_tokens` / `max_completion_tokens`, when the client sent one. */
  maxTokens?: number;
  stream: boolean;
  /** Whether an OpenAI client asked for a final usage chunk (`stream_options.include_usage`). */
  includeUsage: boolean;
  stop?: string[];
  temperature?: number;
  /** Lower-cased header names, as Node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON body, untouched. */
  body: Record<string, unknown>;
}

interface FakeUsage {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
}

/** One scripted reply. Every field is optional; a plain string is `{ text }`. */
export interface FakeResponseSpec {
  /** The assistant text. */
  text?: string;
  /** Overrides the ~4-chars-per-token count. */
  usage?: FakeUsage;
  /** Normalised ('stop' | 'length' | 'content_filter' | 'tool') or a raw provider value. Default 'stop'. */
  finishReason?: string;
  /** The `model` the server reports; default: the requested model. */
  model?: string;
  /** Delay before the response starts (overrides the server default). */
  latencyMs?: number;
  /** Streaming only: delay between deltas. */
  chunkDelayMs?: number;
  /** Streaming only: the exact deltas to send (their concatenation is the text). */
  chunks?: string[];
  /** A non-200 status: the body is the provider's error JSON (see error* fields). */
  status?: number;
  /** Sent as the Retry-After header (seconds, fractions allowed). */
  retryAfterSec?: number;
  errorMessage?: string;
  /** Provider error type, e.g. 'invalid_request_error', 'rate_limit_error', 'overloaded_error'. */
  errorType?: string;
  /** OpenAI error code, e.g. 'context_length_exceeded'. */
  errorCode?: string;
  /** A raw response body, sent as-is (with `status`, default 200). */
  body?: string;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Plain: a 200 whose body is not valid JSON. Streaming: one event whose data is not valid JSON. */
  malformedJson?: boolean;
  /** Sends part of the response, then destroys the socket. */
  dropMidStream?: boolean;
  /** Streaming only: an in-stream error event after the first delta (Anthropic `event: error`, OpenAI `data: {"error":…}`). */
  streamError?: { type?: string; message: string };
}

export type FakeResponse = string | FakeResponseSpec;

export type FakeRespondFunction = (request: FakeModelRequest) => FakeResponse | Promise<FakeResponse>;

export interface FakeServerOptions {
  protocol: FakeProtocol;
  /** A script consumed in order, or a function of each request. Default: a script of nothing. */
  respond?: FakeResponse[] | FakeRespondFunction;
  /** Default delay before each response. */
  latencyMs?: number;
  /** Default delay between streamed deltas. */
  chunkDelayMs?: number;
  /** Characters per streamed delta when a response gives no `chunks`. Default 12. */
  chunkChars?: number;
  /** When set, requests without this key get a 401 in the provider's format. */
  requireApiKey?: string;
  /** Ids listed by GET /v1/models. */
  models?: string[];
  /** Cut text longer than the request's max tokens (~4 chars each) and report finish 'length'. Default true. */
  honourMaxTokens?: boolean;
  /** Clock for the recorded times; default Date.now. */
  now?: () => number;
  /** Report prompt-cache usage as the provider would (fakePromptCache.ts); default off. */
  promptCache?: boolean;
  /** The batch endpoints (fakeBatches.ts): timing, per-request fates, or `enabled: false` for none. */
  batches?: FakeBatchOptions;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** Parsed JSON body, or undefined for GETs and unparseable bodies. */
  body?: Record<string, unknown>;
  /** The raw body text (so tests can check, e.g., that a context never reached the root). */
  rawBody: string;
  bytes: number;
  receivedAt: number;
  finishedAt?: number;
  /** The status sent, once sent. */
  status?: number;
  /** The normalised request, for completion requests. */
  parsed?: FakeModelRequest;
  /** True when the client went away before the response was complete. */
  aborted: boolean;
}

export interface FakeModelServer {
  readonly protocol: FakeProtocol;
  /** OpenAI: http://127.0.0.1:PORT/v1 ; Anthropic: http://127.0.0.1:PORT (what each SDK's baseURL expects). */
  readonly baseUrl: string;
  readonly port: number;
  /** Every request received, in arrival order. */
  readonly requests: RecordedRequest[];
  /** Completion requests only (POST chat/completions or messages). */
  readonly completionRequests: RecordedRequest[];
  /** Completion requests being handled right now, and the most seen at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Problems on the server's side (script exhausted, respond function threw), also answered as a 500. */
  readonly failures: string[];
  /** Scripted responses not yet consumed (0 for a function). */
  readonly remainingScript: number;
  /** Replaces the script or function; the request counter keeps going. */
  setRespond(respond: FakeResponse[] | FakeRespondFunction): void;
  /** The batch endpoints' state: `batchStore.creations` counts batches created, `batchStore.batches` holds them. */
  readonly batchStore: FakeBatchStore;
  /** The requests inside batches, as `respond` saw them (also counted in each request's `index`). */
  readonly batchItemRequests: FakeModelRequest[];
  close(): Promise<void>;
}
