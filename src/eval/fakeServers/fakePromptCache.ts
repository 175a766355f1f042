// The providers' prompt caches as the fake servers report them, so caching can be measured offline with
// the real SDKs: Anthropic caches the prefix up to each `cache_control` mark (reads look back up to 20
// content blocks from a mark; a prefix under 1,024 tokens is not cached), and reports the cached part as
// cache_read_input_tokens / cache_creation_input_tokens beside input_tokens. OpenAI caches any prompt of
// 1,024 tokens or more on its own, in 128-token steps, and reports prompt_tokens_details.cached_tokens.
// Tokens are counted as the fakes count them (about 4 characters each); expiry is not modelled.
import { createHash } from 'node:crypto';
import { estimateTokens } from '../../core/models/tokenEstimate';

const MIN_CACHED_TOKENS = 1024;
const LOOKBACK_BLOCKS = 20;
const OPENAI_STEP_TOKENS = 128;
const CHARS_PER_TOKEN = 4;

interface CacheReport {
  /** Prompt tokens billed at the full rate (Anthropic's input_tokens; OpenAI's prompt minus cached). */
  uncachedTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
}

interface Block {
  /** The block's content, canonical: the prefix key is the hash of all blocks up to here. */
  key: string;
  tokens: number;
  marked: boolean;
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class FakePromptCache {
  private readonly anthropicPrefixes = new Set<string>();
  private readonly openaiPrefixes = new Set<string>();

  /** Usage for an Anthropic Messages request body, updating the cache as the API would. */
  anthropic(body: Record<string, unknown>): CacheReport {
    const blocks = anthropicBlocks(body);
    const prefixes: Array<{ id: string; tokens: number }> = [];
    let running = '';
    let tokens = 0;
    for (const block of blocks) {
      running = hash(running + block.key);
      tokens += block.tokens;
      prefixes.push({ id: running, tokens });
    }
    const marks = blocks.flatMap((b, i) => (b.marked ? [i] : []));
    // A read: the longest cached prefix ending within the look-back window of some mark.
    let read = 0;
    for (const mark of marks) {
      for (let j = mark; j >= Math.max(0, mark - LOOKBACK_BLOCKS + 1); j--) {
        if (this.anthropicPrefixes.has(prefixes[j]!.id)) {
          read = Math.max(read, prefixes[j]!.tokens);
          break;
        }
      }
    }
    // A write: every mark whose prefix is long enough and new; billed once, up to the last such mark.
    let writtenTo = read;
    for (const mark of marks) {
      const prefix = prefixes[mark]!;
      if (prefix.tokens < MIN_CACHED_TOKENS || this.anthropicPrefixes.has(prefix.id)) continue;
      this.anthropicPrefixes.add(prefix.id);
      writtenTo = Math.max(writtenTo, prefix.tokens);
    }
    return { uncachedTokens: Math.max(0, tokens - writtenTo), cacheReadTokens: read, cacheWriteTokens: writtenTo - read };
  }

  /** Usage for an OpenAI chat completions request: the longest prompt prefix seen before, in 128-token steps. */
  openai(body: Record<string, unknown>): CacheReport {
    const text = JSON.stringify(Array.isArray(body.messages) ? body.messages : []);
    const total = estimateTokens(text);
    if (total < MIN_CACHED_TOKENS) return { uncachedTokens: total, cacheReadTokens: 0, cacheWriteTokens: 0 };
    let read = 0;
    const step = OPENAI_STEP_TOKENS * CHARS_PER_TOKEN;
    for (let end = MIN_CACHED_TOKENS * CHARS_PER_TOKEN; end <= text.length; end += step) {
      const id = hash(text.slice(0, end));
      if (this.openaiPrefixes.has(id)) read = end / CHARS_PER_TOKEN;
      else this.openaiPrefixes.add(id);
    }
    read = Math.min(read, total);
    return { uncachedTokens: total - read, cacheReadTokens: read, cacheWriteTokens: 0 };
  }
}

/** The request's content blocks in cache order: system, then each message's blocks. */
function anthropicBlocks(body: Record<string, unknown>): Block[] {
  const blocks: Block[] = [];
  const add = (content: unknown, role: string): void => {
    const parts = typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
    for (const part of parts) {
      const p = (part ?? {}) as { text?: unknown; cache_control?: unknown };
      const text = typeof p.text === 'string' ? p.text : JSON.stringify(p);
      blocks.push({ key: `${role}\u0000${text}`, tokens: estimateTokens(text), marked: p.cache_control !== undefined && p.cache_control !== null });
    }
  };
  add(body.system, 'system');
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    const m = (message ?? {}) as { role?: unknown; content?: unknown };
    add(m.content, String(m.role));
  }
  return blocks;
}
