// The sidebar chat's UI state. It lives in the extension host; the webview only renders it, so a
// re-created view shows exactly what was there before.
import type { RunOutcome } from './runOutcomeView';

/** What a question is asked about. `uri` is the folder's or file's URI string, absent for the workspace. */
export interface ChatTarget {
  kind: 'workspace' | 'file' | 'folder';
  /** As the user recognises it: "Workspace", "src/app.ts", "backend/". */
  label: string;
  uri?: string;
}

/** The compact live line of a run: the same figures as the status bar item. */
export interface RunLiveLine {
  turn: number;
  subCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** null while no priced call has been made or the price is unknown. */
  costUsd: number | null;
  costUnknown: boolean;
  /** Every model of the run is on this machine or the local network: no per-token charge. */
  costLocal: boolean;
  /** Some call was paid by the user's plan (a VS Code language model): see src/shared/text/costText.ts. */
  includedInPlan?: boolean;
  /** What the run is doing now, e.g. "running cell 3" or "waiting for the model". */
  activity: string;
  /** Caching so far (absent when nothing was cached): prompt tokens read from a cache, sub-calls answered from the sub-call cache, money saved. */
  cacheReadTokens?: number;
  cachedSubCalls?: number;
  savedUsd?: number;
}

type ChatEntryStatus =
  | 'queued'
  | 'gathering'
  | 'running'
  | 'completed'
  | 'forced'
  | 'cancelled'
  | 'limit'
  | 'error';

/** One question and its answer in a conversation. */
export interface ChatEntry {
  id: string;
  question: string;
  target: ChatTarget;
  status: ChatEntryStatus;
  live: RunLiveLine;
  /** The tail of the root model's streamed text for the current turn (plain text, not markdown). */
  streamingText: string;
  /** Markdown from the model: rendered with raw HTML disabled. */
  answer?: string;
  /** How the run ended, in words (set when it has). */
  outcome?: RunOutcome;
  /** A run that ended without an answer: its last output, shown as partial findings, never as the answer. */
  partial?: string;
  /** Models of this run with no known price (the entry offers "Set a price…"). */
  unpricedModels?: string[];
  /** The answer's `path:line` citations found in the input: links that open the file at the line. */
  references?: Array<{ path: string; line: number; endLine?: number; text: string; notebookCell?: { cell: number; line?: number; endLine?: number; endCell?: number } }>;
  runId?: string;
  /** Set as soon as the trajectory file exists, so "View trajectory" works mid-run. */
  trajectoryPath?: string;
  startedAt: number;
  finishedAt?: number;
}

/** A past run found in the trajectory directory. */
export interface HistoryItem {
  path: string;
  runId: string;
  question: string;
  startedAt: number;
  status: string;
  targetLabel?: string;
  /** Plain text (Markdown stripped), one line. */
  answerPreview?: string;
  /** The chat conversation the run belonged to; follow-ups share it. */
  conversationId?: string;
  /** "an agent (MCP: claude-code)": the run was asked by an agent through a tool, not by a person. */
  askedBy?: string;
}

export interface HistoryState {
  query: string;
  items: HistoryItem[];
  loading: boolean;
  /** A plain sentence when the directory could not be read. */
  error?: string;
}

export interface SidebarState {
  conversationId: string;
  entries: ChatEntry[];
  targets: ChatTarget[];
  selectedTarget: ChatTarget;
  /** True while an entry of this conversation is queued, gathering or running. */
  busy: boolean;
  /** "openai · gpt-4o-mini", or undefined when no model is configured. */
  modelLabel?: string;
  trusted: boolean;
  history: HistoryState;
  tab: 'chat' | 'history';
  /** A question put in the box from elsewhere (a view's "Ask again"); `id` changes with each one. */
  draft?: { id: number; question: string };
  /** What the chat says before the first question (host-provided, so its words live with the rest). */
  emptyHint?: string;
}

const ACTIVE_STATUSES: readonly ChatEntryStatus[] = ['queued', 'gathering', 'running'];

export function isActiveStatus(status: ChatEntryStatus): boolean {
  return ACTIVE_STATUSES.includes(status);
}
