// The sidebar chat's UI state. It lives in the extension host; the webview only renders it, so a
// re-created view shows exactly what was there before.

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
  /** What the run is doing now, e.g. "running cell 3" or "waiting for the model". */
  activity: string;
}

export type ChatEntryStatus =
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
  /** A plain sentence with the next step, for failed runs. */
  errorMessage?: string;
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
  answerPreview?: string;
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
}

export const ACTIVE_STATUSES: readonly ChatEntryStatus[] = ['queued', 'gathering', 'running'];

export function isActiveStatus(status: ChatEntryStatus): boolean {
  return ACTIVE_STATUSES.includes(status);
}
