// The host <-> trajectory-webview protocol. The host holds the run tree; the webview gets a light
// outline first and pages everything heavier (turn bodies, full outputs, full prompts) on demand,
// so a 5,000-cell run never crosses the boundary at once. Both sides import these types; the view
// shapes are projections of src/core/trajectory/treeTypes.ts, declared here so the webview depends
// on src/shared/ only.
import type { z } from 'zod';
import type { NodeTotals } from './nodeTotals';
import type { exportFormatSchema, searchFiltersSchema, textRefSchema, webviewToHostSchema } from './trajectoryProtocolGuards';
import type { RunOutcome } from './runOutcomeView';

/** Bumped when a message changes incompatibly; the host refuses a webview of another version. */
export const TRAJECTORY_PROTOCOL_VERSION = 1;

export type ViewRunStatus = 'completed' | 'forced' | 'cancelled' | 'limit' | 'error' | 'running' | 'incomplete';

/** Addresses one piece of (possibly long) text the host holds, so the webview can page it. */
export type TextRef = z.infer<typeof textRefSchema>;

/** A failure as the view shows it: the kind recorded (any word, shown as text), what happened, the limit reached. */
interface ViewError {
  kind: string;
  message: string;
  limit?: string;
}

/** The first part of a text; `totalChars > text.length` means the rest can be paged with requestText. */
export interface TextPreview {
  text: string;
  totalChars: number;
}

/** One sandbox layer as the view shows it: on only when every probe made at start held. */
export interface ProtectionView {
  label: string;
  on: boolean;
  probes: Array<{ name: string; held: boolean; detail: string }>;
  notes: string[];
}

/** What the view needs to word costs honestly (see src/shared/text/costText.ts). */
interface PricingView {
  /** The root model is served from this machine or the local network (no per-token charge). */
  rootLocal: boolean;
  subLocal: boolean;
  /** Models that made calls with no known price (offered in "Set a price…"). */
  unpriced: string[];
}

/** One question of a conversation recorded in one file (a question and its follow-ups). */
export interface ConversationRunView {
  runId: string;
  question: TextPreview;
  answer?: TextPreview;
  status: ViewRunStatus;
  forced: boolean;
  iterations: number;
  totals: NodeTotals;
  /** How it stood to the question before it (chat turn or not, REPL kept or new), in words. */
  session?: string;
}

export interface ConversationView {
  runs: ConversationRunView[];
  /** All questions together; wall time from the first start to the last end. */
  totals: NodeTotals;
}

export interface RunHeaderView {
  runId: string;
  depth: number;
  parentCallId?: string;
  question: TextPreview;
  answer?: TextPreview;
  /** A run that ended without an answer: its last output, labelled as partial findings. */
  partial?: TextPreview;
  status: ViewRunStatus;
  /** How the run ended (or that it runs), in words: the headline of the header. */
  outcome: RunOutcome;
  forced: boolean;
  error?: ViewError;
  pricing: PricingView;
  rootModel?: string;
  subModel?: string;
  /** Every distinct model seen in this run's sub-calls (the search filter offers them). */
  models: string[];
  /** Deepest sub-call depth anywhere below this run. */
  maxDepth: number;
  iterations: number;
  totals: NodeTotals;
  startedAt: number;
  finishedAt?: number;
  limitWarnings: Array<{ limit: string; value: number; max: number }>;
  fallbacks: Array<{ kind: string; detail: string }>;
  protections: ProtectionView[];
  protectionNotes: string[];
  /** Characters of a cell's output the root model saw (head + tail), when recorded. */
  observationMaxChars?: number;
  /** e.g. "file src/app.ts (12 KB)" */
  target?: string;
  /** e.g. "str, 1.2M chars" */
  contextSummary?: string;
  /** The input's original format in words, shown beside the target: "read decompressed from gzip", "a PDF of 40 pages, …". */
  inputFormat?: string;
  /** Where it came from: a file path or "live". */
  source: string;
  format: 'rlm' | 'reference' | 'live';
  /** Problems the reader found in the file (count and the first few). */
  problems: { count: number; first: string[] };
  /** The host is still reading the file: more turns will arrive as updates. */
  loading?: boolean;
  /** The file holds several questions: this run is the first, the others are its follow-ups. */
  conversation?: ConversationView;
  /** The answer's citations found in the input (open with `openReference`), and those that were not. */
  references?: ReferenceView[];
  unresolvedReferences?: Array<{ citation: string; reason: string; detail: string }>;
  /** The run this one continued or forked: named by its question; `openParent` opens it when `openable`. */
  continuedFrom?: ContinuedFromView;
  /** Which parts of the input the run saw and cited, in equal runs of lines (the coverage strip). */
  coverage?: CoverageView;
}

export interface ContinuedFromView {
  /** "Continued from", "Forked at turn 3 from", "Replayed, for your own cells, from". */
  relation: string;
  /** The parent's question (or "run <id>" when it had none). */
  question: string;
  /** The host knows the parent's file and can open it. */
  openable: boolean;
}

export interface CoverageView {
  totalLines: number;
  seenLines: number;
  citedLines: number;
  /** Per bucket: matchable lines, and how many were in cell output, in sub-call prompts, cited. */
  buckets: Array<{ lines: number; cell: number; subcall: number; cited: number }>;
  /** Where files start, for the strip's labels (the first few). */
  files: Array<{ path: string; firstLine: number; lines: number }>;
}

/** A resolved citation: the file text of the cited line(s) is untrusted, shown as text only. */
interface ReferenceView {
  path: string;
  line: number;
  endLine?: number;
  text: string;
  /** A notebook's cell (shown `x.ipynb#cell=3:2`): see Reference.notebookCell. */
  notebookCell?: { cell: number; line?: number; endLine?: number; endCell?: number };
}

/** One line of the outline: enough to place, label and filter a turn without its body. */
export interface TurnSummary {
  index: number;
  turn: number;
  cells: number;
  subCalls: number;
  errors: number;
  final: boolean;
  running: boolean;
  startedAt: number;
  finishedAt?: number;
  costUsd: number;
  /** Some call of the turn was paid by the user's plan (see costWording.ts). */
  includedInPlan?: boolean;
  /** The first non-blank line of the turn's first cell, clipped. */
  firstLine: string;
  /** What the turn is about: the model's stated intent (its first sentence), else the cell's first meaningful line. */
  label: string;
  /** A turn of the user's own cells (labelled "You"). */
  author?: 'user';
}

interface ChildRunRef {
  runId: string;
  status: ViewRunStatus;
  turns: number;
  totals: NodeTotals;
}

export interface SubCallView {
  callId: string;
  kind: 'llm_query' | 'rlm_query';
  batchIndex?: number;
  depth: number;
  model: string;
  status: 'running' | 'ok' | 'error';
  prompt: TextPreview;
  response?: TextPreview;
  error?: ViewError;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number | null;
  /** Paid by the user's plan (a VS Code language model): shown as "included in your plan". */
  includedInPlan?: boolean;
  latencyMs?: number;
  fallback?: string;
  /** Answered from the sub-call cache: no request was sent. */
  cached?: boolean;
  /** Answered from the record a continued run replayed: nothing sent, nothing billed. */
  replayed?: boolean;
  /** Made by the user's own cell: billed to the user. */
  author?: 'user';
  startedAt: number;
  finishedAt?: number;
  totals: NodeTotals;
  child?: ChildRunRef;
}

export type SubCallEntry =
  | { kind: 'call'; call: SubCallView }
  | {
      kind: 'batch';
      batchId: string;
      size: number;
      /** Items that failed, not counting those cancelled (by Stop, or by the provider before they ran). */
      errors: number;
      cancelled: number;
      totals: NodeTotals;
      startedAt: number;
      finishedAt?: number;
      calls: SubCallView[];
    };

export interface CellView {
  cellId: string;
  /** The user's own cell, run in the run's REPL from the view. */
  author?: 'user';
  code: TextPreview;
  startedAt: number;
  finishedAt?: number;
  durationMs?: number;
  running: boolean;
  stdout?: TextPreview;
  stderr?: TextPreview;
  /** True output lengths, including what was not captured. */
  stdoutChars?: number;
  stderrChars?: number;
  /** What the root model saw of this output, in words; absent when it saw all of it. */
  rootSawNote?: string;
  error?: { type: string; message: string; traceback: TextPreview };
  newVariables: string[];
  final?: { value: TextPreview; via: string };
  timedOut: boolean;
  interrupted: boolean;
  restarted?: { reason: string; detail: string };
  outIndex?: number;
  subCalls: SubCallEntry[];
  /** Sub-calls left out of `subCalls` to keep a page small; requestCell returns the cell with all of them. */
  subCallsOmitted?: number;
  /** Large batches of this cell, estimated before they were sent (or refused, over the cost limit). */
  batchEstimates?: BatchEstimateView[];
  /** Provider batches (--batch / rlm.subCallBatch) this cell's llm_query_batched calls went out as. */
  providerBatches?: ProviderBatchView[];
  totals: NodeTotals;
}

/** A provider batch as the cell shows it: waiting with its counts and elapsed time, ended, or cancelled. */
export interface ProviderBatchView {
  provider: 'openai' | 'anthropic';
  providerBatchId: string;
  status: string;
  counts: { total: number; succeeded: number; errored: number; expired: number; canceled: number; processing: number };
  /** Elapsed at the last recorded poll, and when that was (epoch ms): a live view counts on from there. */
  elapsedMs: number;
  updatedAt: number;
  ended: boolean;
  cancelled?: boolean;
  resumed?: boolean;
  /** The provider's own words when the batch failed as a whole. */
  failure?: string;
}

export interface BatchEstimateView {
  batchId: string;
  prompts: number;
  chars: number;
  /** null when no price is known for the model. */
  estimatedCostUsd: number | null;
  refused?: boolean;
}

export interface TurnView {
  runId: string;
  index: number;
  turn: number;
  startedAt: number;
  finishedAt?: number;
  /** The model's text with the executed code blocks taken out (they are shown as cells). */
  reasoning?: TextPreview;
  inputTokens?: number;
  outputTokens?: number;
  costUsd?: number | null;
  /** Paid by the user's plan (a VS Code language model): shown as "included in your plan". */
  includedInPlan?: boolean;
  /** The root model's prompt tokens read from the provider's cache this turn, and what that saved. */
  cacheReadTokens?: number;
  savedUsd?: number;
  latencyMs?: number;
  /** A turn of the parent record, re-run by a continued run: its reply came from the record, not the model. */
  replayed?: boolean;
  forcedFinal: boolean;
  notices: Array<{ kind: string; message: string }>;
  cells: CellView[];
  totals: NodeTotals;
  /** Model text streamed so far in a turn whose output has not arrived yet (live only). */
  streaming?: string;
  /** Live, and the model has not sent a word of this turn yet: it is thinking. */
  waiting?: boolean;
  /** A turn of the user's own cells: no model reply, labelled "You". */
  author?: 'user';
}

export type SearchFilters = z.infer<typeof searchFiltersSchema>;

export interface SearchHit {
  runId: string;
  /** Index of the ROOT turn the hit belongs to (child-run hits map to their root turn). */
  rootTurnIndex: number;
  where: 'reasoning' | 'code' | 'stdout' | 'stderr' | 'error' | 'prompt' | 'response' | 'turn';
  cellId?: string;
  callId?: string;
  /** Text around the match. */
  excerpt: string;
  /** Where the match sits in `excerpt` (absent when the hit is a filter match, not a text match). */
  match?: { start: number; length: number };
}

export type ExportFormat = z.infer<typeof exportFormatSchema>;

/**
 * Whether the user can run a cell of their own in the run's REPL now. `waiting`: the run (or a follow-up)
 * is using it. `gone`: the REPL has ended (the run failed, the view was closed, the file was opened from
 * disk); `replayable` when the run can be replayed from its file into a new session (nothing re-billed).
 */
export type UserCellState =
  | { status: 'ready' }
  | { status: 'running' }
  | { status: 'waiting'; reason: string }
  | { status: 'gone'; reason: string; replayable: boolean };

/** The id of the page's JSON block carrying the first `state` (the webview reads it before saying `ready`). */
export const INITIAL_STATE_ID = 'rlm-initial-state';

/** What a webview posts; declared, with its rules, in trajectoryProtocolGuards.ts (the host checks each one). */
export type WebviewToHost = z.infer<typeof webviewToHostSchema>;

export type HostToWebview =
  /**
   * The answer to `ready`. `outline` holds the first turns' summaries only; the webview asks for the
   * rest with requestOutline after its first turns, so they render before a 5,000-turn outline crosses.
   */
  | {
      type: 'state';
      header: RunHeaderView;
      outline: TurnSummary[];
      turnCount: number;
      live: boolean;
      /** The page of turns shown first (the first page; the newest while live), saving a round trip. */
      firstTurns: TurnView[];
    }
  | { type: 'outline'; requestId: number; runId: string; from: number; outline: TurnSummary[] }
  | { type: 'run'; requestId: number; header: RunHeaderView; outline: TurnSummary[] }
  | { type: 'turns'; requestId: number; runId: string; turns: TurnView[] }
  | { type: 'cell'; requestId: number; runId: string; cell: CellView }
  | { type: 'text'; requestId: number; ref: TextRef; offset: number; text: string; totalChars: number }
  | { type: 'searchResults'; requestId: number; hits: SearchHit[]; total: number; truncated: boolean }
  /** A request could not be answered (unknown run, cell or call). */
  | { type: 'requestFailed'; requestId: number; message: string }
  /**
   * Live: the run changed. `outline` holds the summaries from `outlineFrom` on (new and changed turns);
   * `changedTurns` lists indices whose bodies the webview should re-request if it holds them.
   */
  | {
      type: 'update';
      runId: string;
      header: RunHeaderView;
      outlineFrom: number;
      outline: TurnSummary[];
      changedTurns: number[];
      live: boolean;
    }
  /** Live: model text streamed so far for a turn not yet complete (the full text, not a delta). */
  | { type: 'streaming'; runId: string; turnIndex: number; text: string }
  | { type: 'notice'; level: 'info' | 'error'; message: string }
  /** Whether the cell input at the bottom can run now (sent after `ready` and on every change). */
  | { type: 'userCell'; state: UserCellState };

export type MessageOf<U extends { type: string }, T extends U['type']> = Extract<U, { type: T }>;

/** Paging sizes both sides agree on. */
export const PAGE = {
  /** Characters of any text sent before the user asks for more. */
  previewChars: 2000,
  /** Characters of prompts and responses in sub-call previews. */
  subCallPreviewChars: 300,
  /** Characters per requestText page. */
  textPageChars: 64_000,
  /** Turns per requestTurns page. */
  turnsPerPage: 12,
  /** Outline summaries in the `state` message, and per `outline` message after it. */
  outlineFirstChunk: 200,
  outlineChunk: 1000,
  /** Sub-calls per cell in a turn page; the rest come with requestCell. */
  maxSubCallsPerCell: 200,
  /** Search hits returned at most. */
  maxSearchHits: 500,
} as const;
