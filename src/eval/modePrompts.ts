// What the eval modes add to a task. `direct`: the whole context in one prompt, cut to fit the model's
// window (the cut is recorded, never silent), files laid out one after another under a header line each.
// `rlm-no-sub`: a note that sub-calls are disabled.
import type { ContextSource } from '../core/context/contextTypes';
import type { ChatMessage } from '../core/models/modelTypes';

export const CONTEXT_BEGIN = '--- BEGIN CONTEXT ---';
export const CONTEXT_END = '--- END CONTEXT ---';
export const FILE_HEADER = (path: string): string => `=== FILE: ${path} ===`;
const TRUNCATION_NOTE = '[... the context was cut here to fit the model window ...]';

/** Characters per token assumed when sizing the prompt to the window. */
const CHARS_PER_TOKEN = 4;
/** Room kept for the instructions, the question and the reply. */
const RESERVED_TOKENS = 4_096;
/** Assumed when the model's window is not configured. */
export const DEFAULT_DIRECT_WINDOW_TOKENS = 128_000;

interface DirectPrompt {
  messages: ChatMessage[];
  /** Characters of the context in the prompt, and in the whole context. */
  shownChars: number;
  totalChars: number;
  truncated: boolean;
}

function decode(content: Uint8Array | string): string {
  return typeof content === 'string' ? content : new TextDecoder().decode(content);
}

function contextAsText(source: ContextSource): string {
  if (source.kind === 'text') return decode(source.text);
  if (source.kind === 'plan') throw new TypeError('contextAsText: read the plan into memory first (readPlanInMemory)');
  return source.files.map((f) => `${FILE_HEADER(f.path)}\n${decode(f.content)}\n`).join('');
}

export function buildDirectPrompt(question: string, source: ContextSource, windowTokens: number, replyTokens: number): DirectPrompt {
  const full = contextAsText(source);
  const budgetChars = Math.max(0, (windowTokens - RESERVED_TOKENS - replyTokens) * CHARS_PER_TOKEN - question.length);
  const truncated = full.length > budgetChars;
  const shown = truncated ? full.slice(0, budgetChars) : full;
  const content = [
    'Answer the question about the text between the context markers. Reply with the answer only.',
    '',
    `Question: ${question}`,
    '',
    CONTEXT_BEGIN,
    truncated ? `${shown}\n${TRUNCATION_NOTE}` : shown,
    CONTEXT_END,
    '',
    `Question (repeated): ${question}`,
  ].join('\n');
  return { messages: [{ role: 'user', content }], shownChars: shown.length, totalChars: full.length, truncated };
}

/** Appended to the question in `rlm-no-sub` mode, where the run allows no sub-calls at all. */
export const NO_SUB_CALLS_NOTE = 'Sub-model calls (llm_query, rlm_query) are disabled in this run: solve it with code alone.';
