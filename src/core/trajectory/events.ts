// The one typed event stream of a run. The loop emits these; the trajectory writer appends them to
// the .rlm.jsonl file, the webview renders them live, the reader rebuilds the same tree from the
// file, and the CLI prints them. Content is carried once: a turn event holds only what is new.
import type { ContextMetadata, TargetDescription } from '../context/contextTypes';
import type { ProviderKind, TokenUsage } from '../models/modelTypes';
import type { CellResult, FinalAnswer, SandboxProtections } from '../repl/replTypes';
import type { CoverageRecord } from '../citations/coverage';

export interface ModelRef {
  provider: ProviderKind;
  model: string;
  /** Endpoint without credentials. */
  baseUrl?: string;
}

/** Configuration as recorded: limits and models, never keys. */
export interface RunConfigRecord {
  root: ModelRef;
  sub: ModelRef;
  maxIterations: number;
  maxDepth: number;
  maxSubCalls: number;
  maxTotalTokens?: number;
  maxCostUsd?: number;
  maxWallTimeMs?: number;
  maxConsecutiveErrors: number;
  cellTimeoutMs: number;
  subCallTimeoutMs: number;
  subCallMaxTokens: number;
  subCallConcurrency: number;
  /** Characters of a cell's output the root sees (head + tail). */
  observationMaxChars: number;
  /** Characters of a cell's output that are captured and recorded. */
  outputCaptureMaxChars: number;
}

/** A `path:line` (or `path:start-end`) citation of the answer, found in the bound context. */
export interface Reference {
  /** The context's own path of the file (for a single text, the name it was bound under). */
  path: string;
  /** 1-based. */
  line: number;
  /** Inclusive end of a range. */
  endLine?: number;
  /** The cited line(s) as they read when the run ended, clipped; file text, shown as text only. */
  text: string;
}

/** A citation of the answer that could not be found in the context: listed, never dropped. */
export interface UnresolvedCitation {
  /** As written in the answer. */
  citation: string;
  path: string;
  line: number;
  endLine?: number;
  reason: 'unknown-path' | 'ambiguous-path' | 'line-out-of-range' | 'bad-range' | 'unreadable';
  detail: string;
}

/**
 * The recorded run a run was continued or forked from. `continue`: every recorded turn was replayed and a
 * new question asked; `fork`: turns 1..fromTurn-1 were replayed and the root took over at fromTurn.
 */
export interface ContinuedFrom {
  /** 'session': only replayed, so the user can run their own cells in it; no question was asked. */
  mode: 'continue' | 'fork' | 'session';
  /** The parent trajectory, as the user named it. */
  trajectory?: string;
  runId: string;
  question: string;
  fromTurn?: number;
  allowDivergence: boolean;
}

export type RunStatus = 'completed' | 'forced' | 'cancelled' | 'limit' | 'error';

export type LimitKind =
  | 'iterations'
  | 'depth'
  | 'subCalls'
  | 'totalTokens'
  | 'costUsd'
  | 'wallTime'
  | 'consecutiveErrors';

export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  /** null when any contributing model has an unknown price. */
  costUsd: number | null;
  /** True when some part of the cost is unknown (it is then a lower bound or null). */
  costUnknown: boolean;
  /** Some call was paid by the user's plan (a VS Code language model): cost 0, read "included in your plan". */
  includedInPlan?: boolean;
  subCalls: number;
  iterations: number;
  wallTimeMs: number;
  /** Prompt tokens the providers read from their prompt caches (billed at their cache rate). */
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  /** What prompt caching and the sub-call cache saved against full price (known prices only). */
  savedUsd?: number;
  /** Sub-calls answered from the sub-call cache, with no request sent. */
  cachedSubCalls?: number;
}

/** A run's place in a conversation of runs sharing a REPL (recorded for imported reference logs). */
export interface RunSessionInfo {
  /** The reference's `session_mode`: the run was a chat turn whose root saw the session's earlier messages. */
  chat?: boolean;
  /** The REPL variable the run's input was bound to (`context`, `completion_context`, `session_context_2`). */
  contextVariable?: string;
  /** Whether the run found the REPL of the run before it ('shared') or a new one, as its namespace shows. */
  repl?: 'shared' | 'new' | 'unknown';
  /** Variables of earlier runs the run found in its REPL. */
  carriedOver?: string[];
}

export type RunEvent =
  | {
      type: 'run.started';
      runId: string;
      /** Set for child runs started by rlm_query. */
      parentRunId?: string;
      parentCellId?: string;
      parentCallId?: string;
      depth: number;
      question: string;
      /** `context` as bound: exact sizes. */
      context: ContextMetadata;
      /**
       * What the root's first request was told of `context`, when that was a preview sent before binding
       * finished (sizes estimated, files not yet read); absent when it was told `context` itself.
       */
      contextShown?: ContextMetadata;
      target?: TargetDescription;
      config: RunConfigRecord;
      protections: SandboxProtections;
      /** Prior questions and answers of the same conversation given to the root. */
      priorTurns?: Array<{ question: string; answer: string }>;
      /** How the run stood to the earlier runs of its conversation, where the source recorded it. */
      session?: RunSessionInfo;
      /** This run re-ran a recorded run's cells first (`rlm continue`): which, and how. */
      continuedFrom?: ContinuedFrom;
    }
  | { type: 'turn.started'; runId: string; turn: number }
  /** Streamed model text; the writer does not persist deltas (model.output carries the whole text). */
  | { type: 'model.delta'; runId: string; turn: number; text: string }
  | {
      type: 'model.output';
      runId: string;
      turn: number;
      text: string;
      usage: TokenUsage;
      latencyMs: number;
      finishReason: string;
      /** Size in bytes of the request sent to the root, to show the window stays flat. */
      requestBytes: number;
      /** This is the extra "give your best answer" call at the iteration limit. */
      forcedFinal?: boolean;
      /** The recorded reply of a replayed turn: not sent, not billed. */
      replayed?: true;
    }
  | {
      type: 'protocol.notice';
      runId: string;
      turn: number;
      kind: 'no-code-block' | 'extra-code-blocks' | 'python-block' | 'bare-block' | 'final-in-prose' | 'final-var-missing' | 'empty-final';
      /** The corrective text appended to the root's history. */
      message: string;
    }
  /**
   * `author: 'user'`: a cell the user ran in the run's REPL themselves (after the run, from its view), in a
   * turn of its own after the root's turns; absent: the root model's cell (and in files before user cells).
   */
  | { type: 'cell.started'; runId: string; turn: number; cellId: string; code: string; author?: 'user' }
  /** Streamed output; persisted only through cell.finished. */
  | { type: 'cell.output'; runId: string; cellId: string; stream: 'stdout' | 'stderr'; text: string }
  /** The cell's CellResult as the REPL reported it (one declaration: CellResult). */
  | ({ type: 'cell.finished'; runId: string; cellId: string } & CellResult)
  | {
      type: 'subcall.started';
      runId: string;
      callId: string;
      cellId: string;
      kind: 'llm_query' | 'rlm_query';
      /** Shared by the items of one batched call. */
      batchId?: string;
      batchIndex?: number;
      batchSize?: number;
      depth: number;
      model: ModelRef;
      /** The whole text sent to the sub model. */
      prompt: string;
      /**
       * sub_query(prompt, slice): where the slice lies in `prompt`, [start, end) in characters (UTF-16
       * units); the question is what comes before it. Absent for llm_query and in older records.
       */
      slice?: { start: number; end: number };
      /** Made by a user's cell (see cell.started): the user's own sub-call, billed like any other. */
      author?: 'user';
    }
  | {
      type: 'subcall.finished';
      runId: string;
      callId: string;
      response?: string;
      error?: { kind: string; message: string };
      usage: TokenUsage;
      latencyMs: number;
      /** The call was answered by a plain llm_query because max depth was reached. */
      fallback?: 'depth-limit';
      /** Answered from the sub-call cache: no request was sent, nothing was paid (usage.savedUsd says what it would have cost). */
      cached?: true;
      /** Answered from the record being replayed: no request was sent, nothing was paid. */
      replayed?: true;
    }
  /**
   * A replayed cell (or the bound context) did not match the record; the run stops here unless it was
   * started with allowDivergence. `cellId` is absent for `context`.
   */
  | { type: 'replay.diverged'; runId: string; turn: number; cellId?: string; kind: 'context' | 'output' | 'error' | 'subcall'; detail: string; continued: boolean }
  | { type: 'child.started'; runId: string; callId: string; childRunId: string }
  | { type: 'child.finished'; runId: string; callId: string; childRunId: string; status: RunStatus; answer?: string }
  | { type: 'limit.warning'; runId: string; limit: LimitKind; value: number; max: number }
  /**
   * A large llm_query_batched, estimated before it was sent: its prompts' tokens at the model's input
   * price, and replies of a quarter of the max tokens each. `refused` when the estimate would pass the
   * run's cost limit: nothing of the batch was sent.
   */
  | { type: 'batch.estimated'; runId: string; cellId: string; batchId: string; prompts: number; chars: number; estimatedCostUsd: number | null; refused?: true; batchPrice?: true }
  /**
   * A provider batch (OpenAI Batch API, Anthropic Message Batches) was created for an llm_query_batched,
   * or a recorded one was taken up again (`resumed`): written before any wait, so a run interrupted while
   * waiting can poll it instead of sending it again. `items` pair each request's custom id with the hash
   * of the request it carries (providerBatchItemHash); `endpoint` is only compared, never contacted.
   */
  | { type: 'batch.submitted'; runId: string; cellId: string; batchId: string; provider: 'openai' | 'anthropic'; endpoint: string; model: string; providerBatchId: string; items: ProviderBatchItem[]; resumed?: true }
  /** A poll of a provider batch whose status or counts changed. */
  | { type: 'batch.progress'; runId: string; batchId: string; providerBatchId: string; status: string; counts: ProviderBatchCounts; elapsedMs: number }
  /**
   * A provider batch ended (its results were read), or was cancelled when the run was stopped
   * (`cancelled`: `counts.succeeded` requests had already run and are billed).
   */
  | { type: 'batch.ended'; runId: string; batchId: string; providerBatchId: string; status: string; counts: ProviderBatchCounts; elapsedMs: number; cancelled?: true }
  | {
      type: 'fallback';
      runId: string;
      kind: 'depth-limit' | 'snapshot-cold-start' | 'forced-answer' | 'repl-restart' | 'prompt-too-large' | string;
      detail: string;
    }
  /**
   * via: how the answer was given. 'forced': in the last turn a limit allowed; 'draft': a limit left no
   * turn, and this is the answer["content"] the cells had assembled. ('partial' appears only in files
   * written before the RLM contract v1, which presented a printout as the answer.)
   */
  | { type: 'answer'; runId: string; text: string; forced: boolean; via: FinalAnswer['via'] | 'forced' | 'draft' | 'partial' }
  /** Which lines of the input the run saw (cell output, sub-call prompts) and cited: an estimate, for the coverage strip. */
  | { type: 'coverage'; runId: string; coverage: CoverageRecord }
  /** The answer's citations resolved against `context`, right after the answer. */
  | { type: 'references'; runId: string; references: Reference[]; unresolved: UnresolvedCitation[] }
  | {
      type: 'run.finished';
      runId: string;
      status: RunStatus;
      answer?: string;
      forced: boolean;
      error?: { kind: string; message: string; limit?: LimitKind };
      /** A run that ended without an answer: its last output, kept as partial findings, never as the answer. */
      partial?: string;
      totals: UsageTotals;
    };

export type RunEventType = RunEvent['type'];

/** One request of a provider batch: its custom id, and the hash of the request it carries. */
interface ProviderBatchItem {
  customId: string;
  promptHash: string;
}

/** Where a provider batch's requests are (the same figures as core/models/batchTypes.ts BatchCounts). */
export interface ProviderBatchCounts {
  total: number;
  succeeded: number;
  errored: number;
  expired: number;
  canceled: number;
  processing: number;
}

/** An event as it travels and is stored: numbered and timestamped by the run's emitter. */
export type EventRecord = RunEvent & {
  /** Monotonically increasing across the whole stream, child runs included. */
  seq: number;
  /** Milliseconds since the epoch. */
  ts: number;
};

/** Narrow a record to one event type. */
export type EventOf<T extends RunEventType> = Extract<RunEvent, { type: T }>;
