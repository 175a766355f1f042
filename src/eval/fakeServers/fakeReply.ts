// Turns a scripted FakeResponse into the concrete reply both wire formats are built from:
// the text, its deltas, realistic token counts and a normalised finish reason.
import { estimateTokens } from '../../core/models/tokenEstimate';
import type { FakeModelRequest, FakeResponse, FakeResponseSpec } from './fakeServerTypes';

export interface ResolvedReply {
  text: string;
  chunks: string[];
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Normalised: 'stop' | 'length' | 'content_filter' | 'tool' | a raw provider value. */
  finishReason: string;
  model: string;
  spec: FakeResponseSpec;
}

const PER_MESSAGE_OVERHEAD_TOKENS = 4;

export function toSpec(response: FakeResponse): FakeResponseSpec {
  if (typeof response === 'string') return { text: response };
  if (response === null || typeof response !== 'object') {
    throw new TypeError(`A fake response must be a string or an object, got ${response === null ? 'null' : typeof response}`);
  }
  return response;
}

/** What a real tokenizer would roughly report for the prompt. */
function countPromptTokens(request: FakeModelRequest): number {
  let total = request.system ? estimateTokens(request.system) + PER_MESSAGE_OVERHEAD_TOKENS : 0;
  for (const m of request.messages) total += estimateTokens(m.content) + PER_MESSAGE_OVERHEAD_TOKENS;
  return total;
}

function splitIntoChunks(text: string, chunkChars: number): string[] {
  if (text.length === 0) return [];
  const size = Math.max(1, Math.floor(chunkChars));
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return chunks;
}

export function resolveReply(
  spec: FakeResponseSpec,
  request: FakeModelRequest,
  settings: { chunkChars: number; honourMaxTokens: boolean },
): ResolvedReply {
  let text = spec.chunks ? spec.chunks.join('') : (spec.text ?? '');
  let chunks = spec.chunks ?? splitIntoChunks(text, settings.chunkChars);
  let finishReason = spec.finishReason ?? 'stop';
  // Real servers stop at max_tokens; the fake does the same so max-token handling can be tested.
  if (
    settings.honourMaxTokens &&
    spec.finishReason === undefined &&
    request.maxTokens !== undefined &&
    request.maxTokens > 0 &&
    estimateTokens(text) > request.maxTokens
  ) {
    text = text.slice(0, request.maxTokens * 4);
    chunks = splitIntoChunks(text, settings.chunkChars);
    finishReason = 'length';
  }
  return {
    text,
    chunks,
    inputTokens: spec.usage?.inputTokens ?? countPromptTokens(request),
    outputTokens: spec.usage?.outputTokens ?? estimateTokens(text),
    cacheReadTokens: spec.usage?.cacheReadTokens ?? 0,
    cacheWriteTokens: spec.usage?.cacheWriteTokens ?? 0,
    finishReason,
    model: spec.model ?? request.model,
    spec,
  };
}

/** Text of a message's content: a string, or the text parts of a content array. */
export function flattenContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part: unknown) => {
        if (part && typeof part === 'object' && 'text' in part && typeof (part as { text: unknown }).text === 'string') {
          return (part as { text: string }).text;
        }
        return '';
      })
      .join('');
  }
  return '';
}
