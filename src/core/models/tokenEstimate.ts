// A deliberately simple token estimate (about four characters per token, as OpenAI and Anthropic
// both suggest for English text and code). It is used before sending, to refuse prompts that cannot
// fit a model's window, and when a server reports no usage; real counts from the server always win.
import type { ChatMessage } from './modelTypes';

const CHARS_PER_TOKEN = 4;
/** Role markers and separators the providers add around each message. */
const PER_MESSAGE_OVERHEAD_TOKENS = 4;

export function estimateTokens(text: string): number {
  if (typeof text !== 'string') {
    throw new TypeError(`estimateTokens expects a string, got ${text === null ? 'null' : typeof text}`);
  }
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

/** Estimated prompt size of a whole request, including the per-message framing. */
export function estimateMessagesTokens(messages: readonly ChatMessage[]): number {
  let total = 0;
  for (const message of messages) total += estimateTokens(message.content) + PER_MESSAGE_OVERHEAD_TOKENS;
  return total;
}
