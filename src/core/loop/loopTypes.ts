// The public shape of one RLM run: what callers pass in and what they get back. The loop itself is
// an async iterable of EventRecords plus run(), after the Anthropic SDK's tool runner.
import type { ContextSource, PendingContext, TargetDescription } from '../context/contextTypes';
import type { ModelClient } from '../models/modelTypes';
import type { SubCallCache } from '../models/subCallCache';
import type { SubCallBatchOptions } from './batchOptions';
import type { ReplayInput } from './replayer';
import type { UserCellNote } from './userCell';
import type { BridgeHandler, ReplSession } from '../repl/replTypes';
import type { EventRecord, LimitKind, Reference, RunStatus, UnresolvedCitation, UsageTotals } from '../trajectory/events';

export interface RunLimits {
  maxIterations: number; // default 30
  maxDepth: number; // default 1
  maxSubCalls: number; // default 500
  maxTotalTokens?: number;
  maxCostUsd?: number;
  maxWallTimeMs?: number;
  maxConsecutiveErrors: number; // default 5
  cellTimeoutMs: number; // default 60_000
  subCallTimeoutMs: number; // default 120_000
  subCallMaxTokens: number; // default 4096
  subCallConcurrency: number; // default 16
  observationMaxChars: number; // default 4000
  outputCaptureMaxChars: number; // default 200_000
}

/** Points a long-lived session's bridge at whichever run is using the session now. */
export interface BridgeRouter {
  readonly handler: BridgeHandler;
  /** Routes calls to `target` until the returned function is called. */
  route(target: BridgeHandler): () => void;
}

export interface ReplAcquireOptions {
  bridge?: BridgeHandler;
  signal?: AbortSignal;
}

/**
 * Hands out REPL sessions: one per run, and one per child run (a parked parent cannot run a child's
 * cells). Every session it hands out is one no code has touched, and release() kills it: no REPL
 * serves two runs (docs/security.md, layer 4). Follow-ups keep theirs by passing RunOptions.session.
 */
export interface ReplFactory {
  /** `bridge` answers this run's llm_query / rlm_query calls from Python (the loop always passes one). */
  acquire(options?: ReplAcquireOptions): Promise<ReplSession>;
  /** Ends the session: its process is killed. */
  release(session: ReplSession): Promise<void>;
}

export interface RunOptions {
  question: string;
  /** A pending context (a folder still being walked) lets the first request go out before the walk ends. */
  context: ContextSource | PendingContext;
  target?: TargetDescription;
  root: ModelClient;
  /** Defaults to root. */
  sub?: ModelClient;
  limits?: Partial<RunLimits>;
  repl: ReplFactory;
  /**
   * A session to reuse (follow-up questions on the same context), or one still starting: the run's
   * first request goes out while it starts, and the run waits for it only to bind `context`.
   */
  session?: ReplSession | Promise<ReplSession>;
  /**
   * The router the reused `session` was acquired with (`acquire({ bridge: router.handler })`), so
   * its bridge calls reach this run. Required with `session`; see createBridgeRouter().
   */
  sessionBridge?: BridgeRouter;
  signal?: AbortSignal;
  /** Earlier questions and answers in the same conversation, given to the root as prior turns. */
  priorTurns?: Array<{ question: string; answer: string }>;
  /** Cells the user ran in this session since the last answer (runUserCell's notes): the root is shown them. */
  userCells?: UserCellNote[];
  /** Re-run a recorded run's cells first, answering their sub-calls from the record (`rlm continue`). */
  replay?: ReplayInput;
  /** The sub-call cache of this workspace, and how this run uses it; absent: every sub-call is sent. */
  subCallCache?: SubCallCacheUse;
  /** llm_query_batched as provider batches (--batch, rlm.subCallBatch); absent: ordinary calls only. */
  batch?: SubCallBatchOptions;
  /**
   * Called once, the moment the root run's answer is final, before the bookkeeping that follows it
   * (citations resolved and the coverage strip, which read the input again): a caller shows the answer
   * at once, and run() still resolves only once the trajectory is complete.
   */
  onAnswer?: (answer: FinalRunAnswer) => void;
  /** Injected clock for tests; default Date.now. */
  now?: () => number;
  /** Injected id generator for tests. */
  newId?: () => string;
}

/** The root's answer as RunOptions.onAnswer gets it: the run's status is already decided. */
export interface FinalRunAnswer {
  runId: string;
  status: RunStatus;
  text: string;
  forced: boolean;
}

/**
 * `use`: identical sub-calls are answered from the cache, and new answers stored. `refresh`: every call is
 * sent (a user asking again for fresh answers), and its answer replaces the stored one.
 */
export interface SubCallCacheUse {
  cache: SubCallCache;
  mode: 'use' | 'refresh';
}

export interface RunResult {
  runId: string;
  status: RunStatus;
  answer?: string;
  forced: boolean;
  error?: { kind: string; message: string; limit?: LimitKind };
  /** Set when there is no answer: the last output, as partial findings (not an answer). */
  partial?: string;
  /** The answer's `path:line` citations resolved against `context`, and those that were not. */
  references?: Reference[];
  unresolvedReferences?: UnresolvedCitation[];
  totals: UsageTotals;
}

export interface RlmRun extends AsyncIterable<EventRecord> {
  readonly runId: string;
  /** Drives the run to the end (consuming events if nobody iterates) and resolves with the result. */
  run(): Promise<RunResult>;
}
