// A model provider for `rlm mcp` without a model of its own: the MCP client's model, asked through
// MCP sampling (sampling/createMessage). The client decides which model answers, may show each request
// to its user, and pays for it; RLM sees only the text. So the cost is the client's plan's (recorded as
// included in the plan, never $0.00), and the token counts are estimates (sampling reports none).
import type { CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/sdk/types.js';
import { ModelAbortedError, ModelRequestError } from '../../core/models/modelErrors';
import type { ChatMessage, CompleteOptions, Completion, ModelClient } from '../../core/models/modelTypes';
import { estimateMessagesTokens, estimateTokens } from '../../core/models/tokenEstimate';

/** What the adapter needs of the MCP server: its createMessage, with the request's signal. */
type CreateMessage = (params: CreateMessageRequest['params'], options: { signal?: AbortSignal; timeout?: number }) => Promise<CreateMessageResult>;

interface SamplingClientOptions {
  createMessage: CreateMessage;
  /** The client's name, for messages and the recorded model ("claude-code"). */
  clientName: string;
  now?: () => number;
}

/** Sampling has no streaming; a client that shows each request to its user may take long to approve. */
const SAMPLING_TIMEOUT_MS = 600_000;
const DEFAULT_MAX_TOKENS = 4096;

export class SamplingModelClient implements ModelClient {
  readonly provider = 'mcp' as const;
  readonly model: string;
  readonly endpoint: string;
  private readonly now: () => number;

  constructor(private readonly options: SamplingClientOptions) {
    this.model = options.clientName ? `${options.clientName} (sampling)` : 'MCP client (sampling)';
    this.endpoint = 'mcp.sampling';
    this.now = options.now ?? Date.now;
  }

  async complete(messages: ChatMessage[], options: CompleteOptions = {}): Promise<Completion> {
    const system = messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
    const turns = messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role as 'user' | 'assistant', content: { type: 'text' as const, text: m.content } }));
    const started = this.now();
    let result: CreateMessageResult;
    try {
      result = await this.options.createMessage(
        {
          messages: turns,
          ...(system ? { systemPrompt: system } : {}),
          maxTokens: options.maxTokens ?? DEFAULT_MAX_TOKENS,
          ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
          ...(options.stop?.length ? { stopSequences: options.stop } : {}),
          includeContext: 'none',
        },
        { ...(options.signal ? { signal: options.signal } : {}), timeout: SAMPLING_TIMEOUT_MS },
      );
    } catch (error) {
      const info = { provider: 'mcp' as const, endpoint: this.endpoint, model: this.model };
      if (options.signal?.aborted) throw new ModelAbortedError('the request was cancelled', info);
      const message = error instanceof Error ? error.message : String(error);
      // A client that declined (its user said no) is a refusal to act on, not a failure to retry.
      throw new ModelRequestError(`the MCP client's model (through sampling) did not answer: ${message}. Allow sampling in the client, or start rlm mcp with --model.`, info);
    }
    const content = result.content as { type: string; text?: string } | Array<{ type: string; text?: string }>;
    const parts = Array.isArray(content) ? content : [content];
    const text = parts.map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : '')).join('');
    if (options.onDelta && text) options.onDelta(text);
    return {
      text,
      usage: { inputTokens: estimateMessagesTokens(messages), outputTokens: estimateTokens(text), costUsd: 0, includedInPlan: true, estimated: true },
      finishReason: result.stopReason === 'maxTokens' ? 'length' : 'stop',
      model: typeof result.model === 'string' && result.model ? result.model : this.model,
      latencyMs: this.now() - started,
    };
  }
}
