// The OpenAI Chat Completions wire format, as the fake server speaks it: request parsing, plain
// and SSE bodies (with the final usage chunk when `stream_options.include_usage`), and error JSON.
import type { ChatMessage } from '../../core/models/modelTypes';
import { flattenContent } from './fakeReply';
import type { ResolvedReply } from './fakeReply';
import type { FakeModelRequest } from './fakeServerTypes';

export class FakeRequestError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const FINISH_TO_OPENAI: Record<string, string> = { stop: 'stop', length: 'length', content_filter: 'content_filter', tool: 'tool_calls' };

export function parseOpenAIRequest(
  body: Record<string, unknown>,
  headers: FakeModelRequest['headers'],
  index: number,
): FakeModelRequest {
  if (typeof body.model !== 'string' || body.model === '') throw new FakeRequestError(400, 'you must provide a model parameter');
  if (!Array.isArray(body.messages)) throw new FakeRequestError(400, "Missing required parameter: 'messages'.");
  const messages: ChatMessage[] = [];
  const system: string[] = [];
  for (const raw of body.messages as unknown[]) {
    const m = (raw ?? {}) as { role?: unknown; content?: unknown };
    const content = flattenContent(m.content);
    if (m.role === 'system' || m.role === 'developer') system.push(content);
    else if (m.role === 'user' || m.role === 'assistant') messages.push({ role: m.role, content });
    else throw new FakeRequestError(400, `Invalid value for 'messages[].role': ${String(m.role)}`);
  }
  const maxTokens = body.max_completion_tokens ?? body.max_tokens;
  const streamOptions = body.stream_options as { include_usage?: unknown } | undefined;
  const stop = typeof body.stop === 'string' ? [body.stop] : Array.isArray(body.stop) ? (body.stop as string[]) : undefined;
  return {
    index,
    protocol: 'openai',
    messages,
    ...(system.length > 0 ? { system: system.join('\n\n') } : {}),
    model: body.model,
    ...(typeof maxTokens === 'number' ? { maxTokens } : {}),
    stream: body.stream === true,
    includeUsage: streamOptions?.include_usage === true,
    ...(stop ? { stop } : {}),
    ...(typeof body.temperature === 'number' ? { temperature: body.temperature } : {}),
    headers,
    body,
  };
}

function usageJson(reply: ResolvedReply): Record<string, unknown> {
  // OpenAI's prompt_tokens includes the cached part; cached_tokens says how much of it was cached.
  const promptTokens = reply.inputTokens + reply.cacheReadTokens;
  return {
    prompt_tokens: promptTokens,
    completion_tokens: reply.outputTokens,
    total_tokens: promptTokens + reply.outputTokens,
    prompt_tokens_details: { cached_tokens: reply.cacheReadTokens },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

export function openAIPlainBody(reply: ResolvedReply, id: string, created: number): Record<string, unknown> {
  return {
    id,
    object: 'chat.completion',
    created,
    model: reply.model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: reply.text, refusal: null },
        logprobs: null,
        finish_reason: FINISH_TO_OPENAI[reply.finishReason] ?? reply.finishReason,
      },
    ],
    usage: usageJson(reply),
    system_fingerprint: 'fp_fake',
  };
}

/** The SSE frames of one streamed completion, in order. */
export function openAIStreamFrames(reply: ResolvedReply, request: FakeModelRequest, id: string, created: number): string[] {
  const base = { id, object: 'chat.completion.chunk', created, model: reply.model, system_fingerprint: 'fp_fake' };
  const usageField = request.includeUsage ? { usage: null } : {};
  const frame = (payload: unknown): string => `data: ${JSON.stringify(payload)}\n\n`;
  const frames: string[] = [
    frame({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '', refusal: null }, logprobs: null, finish_reason: null }], ...usageField }),
  ];
  for (const chunk of reply.chunks) {
    frames.push(frame({ ...base, choices: [{ index: 0, delta: { content: chunk }, logprobs: null, finish_reason: null }], ...usageField }));
  }
  frames.push(
    frame({ ...base, choices: [{ index: 0, delta: {}, logprobs: null, finish_reason: FINISH_TO_OPENAI[reply.finishReason] ?? reply.finishReason }], ...usageField }),
  );
  if (request.includeUsage) frames.push(frame({ ...base, choices: [], usage: usageJson(reply) }));
  frames.push('data: [DONE]\n\n');
  return frames;
}

export function openAIStreamErrorFrame(type: string, message: string): string {
  return `data: ${JSON.stringify({ error: { message, type, param: null, code: null } })}\n\n`;
}

const DEFAULT_ERRORS: Record<number, { type: string; message: string; code: string | null }> = {
  400: { type: 'invalid_request_error', message: 'Bad request.', code: null },
  401: { type: 'invalid_request_error', message: 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.', code: 'invalid_api_key' },
  403: { type: 'invalid_request_error', message: 'You are not allowed to sample from this model.', code: null },
  404: { type: 'invalid_request_error', message: 'The model does not exist or you do not have access to it.', code: 'model_not_found' },
  429: { type: 'requests', message: 'Rate limit reached for requests. Please try again shortly.', code: 'rate_limit_exceeded' },
  500: { type: 'server_error', message: 'The server had an error while processing your request. Sorry about that!', code: null },
  503: { type: 'server_error', message: 'The engine is currently overloaded, please try again later.', code: null },
};

export function openAIErrorBody(status: number, message?: string, type?: string, code?: string): Record<string, unknown> {
  const fallback = DEFAULT_ERRORS[status] ?? { type: status >= 500 ? 'server_error' : 'invalid_request_error', message: `Error ${status}.`, code: null };
  return { error: { message: message ?? fallback.message, type: type ?? fallback.type, param: null, code: code ?? fallback.code } };
}

export function openAIModelsBody(models: string[], created: number): Record<string, unknown> {
  return { object: 'list', data: models.map((id) => ({ id, object: 'model', created, owned_by: 'fake' })) };
}
