// The Anthropic Messages wire format, as the fake server speaks it: request parsing, plain and SSE
// bodies (message_start … message_stop, with usage in message_start and message_delta), error JSON.
import type { ChatMessage } from '../../core/models/modelTypes';
import { flattenContent } from './fakeReply';
import type { ResolvedReply } from './fakeReply';
import type { FakeModelRequest } from './fakeServerTypes';
import { FakeRequestError } from './fakeWireOpenAI';

const FINISH_TO_ANTHROPIC: Record<string, string> = { stop: 'end_turn', length: 'max_tokens', tool: 'tool_use', content_filter: 'refusal' };

export function parseAnthropicRequest(
  body: Record<string, unknown>,
  headers: FakeModelRequest['headers'],
  index: number,
): FakeModelRequest {
  if (typeof body.model !== 'string' || body.model === '') throw new FakeRequestError(400, 'model: Field required');
  // Like the real API: max_tokens is required.
  if (typeof body.max_tokens !== 'number') throw new FakeRequestError(400, 'max_tokens: Field required');
  if (!Array.isArray(body.messages)) throw new FakeRequestError(400, 'messages: Field required');
  const messages: ChatMessage[] = [];
  for (const raw of body.messages as unknown[]) {
    const m = (raw ?? {}) as { role?: unknown; content?: unknown };
    if (m.role !== 'user' && m.role !== 'assistant') {
      throw new FakeRequestError(400, `messages: Unexpected role "${String(m.role)}". Allowed roles are "user" or "assistant". Use the top-level system parameter for a system prompt.`);
    }
    messages.push({ role: m.role, content: flattenContent(m.content) });
  }
  const system = body.system === undefined ? undefined : flattenContent(body.system);
  return {
    index,
    protocol: 'anthropic',
    messages,
    ...(system !== undefined ? { system } : {}),
    model: body.model,
    maxTokens: body.max_tokens,
    stream: body.stream === true,
    includeUsage: true,
    ...(Array.isArray(body.stop_sequences) ? { stop: body.stop_sequences as string[] } : {}),
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    headers,
    body,
  };
}

function stopReason(reply: ResolvedReply): string {
  return FINISH_TO_ANTHROPIC[reply.finishReason] ?? reply.finishReason;
}

function usageJson(reply: ResolvedReply, outputTokens: number): Record<string, unknown> {
  // Anthropic's input_tokens excludes cached reads and cache writes; they are reported beside it.
  return {
    input_tokens: reply.inputTokens,
    output_tokens: outputTokens,
    cache_creation_input_tokens: reply.cacheWriteTokens,
    cache_read_input_tokens: reply.cacheReadTokens,
  };
}

export function anthropicPlainBody(reply: ResolvedReply, id: string): Record<string, unknown> {
  return {
    id,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content: [{ type: 'text', text: reply.text }],
    stop_reason: stopReason(reply),
    stop_sequence: null,
    usage: usageJson(reply, reply.outputTokens),
  };
}

function event(name: string, payload: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`;
}

export function anthropicStreamFrames(reply: ResolvedReply, id: string): string[] {
  const frames = [
    event('message_start', {
      type: 'message_start',
      message: { id, type: 'message', role: 'assistant', model: reply.model, content: [], stop_reason: null, stop_sequence: null, usage: usageJson(reply, 1) },
    }),
    event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }),
    event('ping', { type: 'ping' }),
  ];
  for (const chunk of reply.chunks) {
    frames.push(event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: chunk } }));
  }
  frames.push(
    event('content_block_stop', { type: 'content_block_stop', index: 0 }),
    event('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason(reply), stop_sequence: null }, usage: { output_tokens: reply.outputTokens } }),
    event('message_stop', { type: 'message_stop' }),
  );
  return frames;
}

export function anthropicStreamErrorFrame(type: string, message: string): string {
  return event('error', { type: 'error', error: { type, message } });
}

const DEFAULT_ERRORS: Record<number, { type: string; message: string }> = {
  400: { type: 'invalid_request_error', message: 'Bad request.' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  403: { type: 'permission_error', message: 'Your API key does not have permission to use the specified resource.' },
  404: { type: 'not_found_error', message: 'The requested resource could not be found.' },
  413: { type: 'request_too_large', message: 'Request exceeds the maximum allowed number of bytes.' },
  429: { type: 'rate_limit_error', message: 'Number of request tokens has exceeded your per-minute rate limit.' },
  500: { type: 'api_error', message: 'Internal server error' },
  529: { type: 'overloaded_error', message: 'Overloaded' },
};

export function anthropicErrorBody(status: number, message?: string, type?: string): Record<string, unknown> {
  const fallback = DEFAULT_ERRORS[status] ?? { type: status >= 500 ? 'api_error' : 'invalid_request_error', message: `Error ${status}.` };
  return { type: 'error', error: { type: type ?? fallback.type, message: message ?? fallback.message } };
}

export function anthropicModelsBody(models: string[]): Record<string, unknown> {
  const data = models.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' }));
  return { data, has_more: false, first_id: data[0]?.id ?? null, last_id: data[data.length - 1]?.id ?? null };
}
