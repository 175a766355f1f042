// The rlm_ask tool as agents see it, the same in VS Code (package.json's languageModelTools declares
// this input schema; a unit test keeps the two equal) and in `rlm mcp`: its name, what it is for, its
// input and output schemas, and the parsing of an input, which comes from a model and is checked here.
import { AgentAskError } from './agentAskErrors';

export const AGENT_TOOL_NAME = 'rlm_ask';

export const AGENT_TOOL_DESCRIPTION =
  'Answers a question about files, folders or a whole codebase too large to read into your context, with a Recursive Language Model: ' +
  'the files stay in a sandbox where a model explores them with code and sub-calls, and you get back a short answer with path:line references. ' +
  'Pass paths (relative to the workspace; files, folders or globs such as src/**/*.ts; none means the whole workspace), never file contents. ' +
  'Use it when a file is too large to read, or a question spans many files (where is X handled, list every Y, summarise this log). ' +
  'It costs model calls and takes from seconds to minutes; one precise question beats several vague ones.';

export const AGENT_TOOL_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    question: { type: 'string', description: 'The question, self-contained: what to find, list or explain, and in what form to answer.' },
    paths: {
      type: 'array',
      items: { type: 'string' },
      description: 'Files, folders or globs relative to the workspace root (e.g. "logs/app.log", "src", "src/**/*.ts"). Empty or absent: the whole workspace.',
    },
  },
  required: ['question'],
} as const;

/**
 * In VS Code the tool also reads the user's selection: an agent cannot name it by path (it does not
 * know which lines the user means), so it says `selection: true` when the user's prompt points at it.
 * `rlm mcp` has no editor, so its schema has no such field.
 */
export const VSCODE_AGENT_TOOL_DESCRIPTION =
  `${AGENT_TOOL_DESCRIPTION} ` +
  'When the user refers to what they have selected ("this code", "the selected lines", "the selection", "here"), set selection to true and leave paths empty: ' +
  'RLM reads the lines selected in the active editor, at their own line numbers.';

export const VSCODE_AGENT_TOOL_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    ...AGENT_TOOL_INPUT_SCHEMA.properties,
    selection: {
      type: 'boolean',
      description: 'true: ask about the lines the user has selected in the active editor (when their prompt refers to the selection); then leave paths empty.',
    },
  },
  required: ['question'],
} as const;

const REFERENCE_SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string' },
    line: { type: 'integer' },
    endLine: { type: 'integer' },
    text: { type: 'string', description: 'The cited line(s), clipped.' },
  },
  required: ['path', 'line', 'text'],
} as const;

export const AGENT_TOOL_OUTPUT_SCHEMA = {
  type: 'object',
  properties: {
    status: { type: 'string', description: 'completed, forced (answered at a limit), limit, cancelled or error.' },
    answer: { type: 'string' },
    error: { type: 'string' },
    partial: { type: 'string' },
    references: { type: 'array', items: REFERENCE_SCHEMA },
    unresolvedCitations: { type: 'integer' },
    figures: {
      type: 'object',
      properties: {
        turns: { type: 'integer' },
        subCalls: { type: 'integer' },
        inputTokens: { type: 'integer' },
        outputTokens: { type: 'integer' },
        costUsd: { type: ['number', 'null'] },
        includedInPlan: { type: 'boolean' },
        wallTimeMs: { type: 'number' },
      },
      required: ['turns', 'subCalls', 'inputTokens', 'outputTokens', 'costUsd', 'wallTimeMs'],
    },
    trajectory: { type: 'string', description: 'The recorded run (.rlm.jsonl): open it in RLM to see every step.' },
    truncated: { type: 'boolean' },
  },
  required: ['status', 'references', 'unresolvedCitations', 'figures', 'truncated'],
} as const;

interface AgentToolInput {
  question: string;
  paths: unknown[];
  /** The user's selection in the active editor is the input (VS Code only). */
  selection: boolean;
}

/** Longer than this is not a question but pasted content: RLM's point is to pass paths instead. */
const MAX_QUESTION_CHARS = 8000;

/** `hasEditor`: the caller can read a selection (VS Code); `rlm mcp` cannot, and says what to pass instead. */
export function parseAgentToolInput(raw: unknown, options: { hasEditor?: boolean } = {}): AgentToolInput {
  if (typeof raw !== 'object' || raw === null) throw new AgentAskError('bad-input', 'The input must be an object with "question" and optionally "paths".');
  const { question, paths, selection } = raw as Record<string, unknown>;
  if (typeof question !== 'string' || !question.trim()) throw new AgentAskError('bad-input', 'Give "question": the question to answer about the files, as a non-empty string.');
  if (question.length > MAX_QUESTION_CHARS) throw new AgentAskError('bad-input', `The question is ${question.length} characters long; keep it under ${MAX_QUESTION_CHARS} and pass the material as "paths", not text.`);
  if (paths !== undefined && !Array.isArray(paths)) throw new AgentAskError('bad-input', '"paths" must be a list of files, folders or globs relative to the workspace, e.g. ["src", "logs/app.log"].');
  if (selection !== undefined && typeof selection !== 'boolean') throw new AgentAskError('bad-input', '"selection" must be true (ask about the user\'s selection) or false.');
  if (selection === true && !options.hasEditor) {
    throw new AgentAskError('bad-input', 'This server has no editor, so it cannot see a selection: pass the file\'s path in "paths" and say in the question which lines you mean.');
  }
  if (selection === true && Array.isArray(paths) && paths.length > 0) {
    throw new AgentAskError('bad-input', 'Give either "selection": true or "paths", not both: ask about the selection alone, or name the files (and quote what was selected in the question).');
  }
  return { question: question.trim(), paths: paths ?? [], selection: selection === true };
}
