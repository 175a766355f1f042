// The public shape of one RLM run: what callers pass in and what they get back. The loop itself is
// an async iterable of EventRecords plus run(), after the Anthropic SDK's tool runner.
import type { ContextSource, PendingContext, TargetDescription } from '../context/contextTypes';
import type { ModelClient } from '../models/modelTypes';
import type { SubCallCache } from '../models/subCallCache';
import type { SubCallBatchOptions } from './batchOptions';
import type { ReplayInput } from '../continuation/replayPlan';
import type { BridgeRouter, ReplFactory } from '../repl/replFactory';
import type { ReplSession } from '../repl/replTypes';
import type { EventOf, EventRecord, RunStatus } from '../trajectory/events';

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

/** A user's cell as the root is told of it in the next question of the conversation. */
export interface UserCellNote {
  code: string;
  /** What the root would have seen of it: the same truncated observation as its own cells get. */
  observation: string;
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

/** What run() resolves with: the run's run.finished event, and its resolved citations. */
export type RunResult = Omit<EventOf<'run.finished'>, 'type'> & {
  /** The answer's `path:line` citations resolved against `context`, and those that were not. */
  references?: EventOf<'references'>['references'];
  unresolvedReferences?: EventOf<'references'>['unresolved'];
};

export interface RlmRun extends AsyncIterable<EventRecord> {
  readonly runId: string;
  /** Drives the run to the end (consuming events if nobody iterates) and resolves with the result. */
  run(): Promise<RunResult>;
}
