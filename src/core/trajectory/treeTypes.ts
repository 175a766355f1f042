// The run as a tree, rebuilt from events, live or from a file. The webview, `rlm show` and the exports
// all read this shape. Totals are rolled up at every node.
import type { TokenUsage } from '../models/modelTypes';
import type { NodeTotals } from '../../shared/nodeTotals';
import type { CoverageRecord, LimitKind, ProviderBatchCounts, RecordedEvent, Reference, RunEvent, RunStatus, UnresolvedCitation } from './events';

type SubCallStarted = Extract<RunEvent, { type: 'subcall.started' }>;
type SubCallFinished = RecordedEvent<Extract<RunEvent, { type: 'subcall.finished' }>>;

/** What the call's two events say (declared once there), plus its place in the tree. */
export interface SubCallNode
  extends Omit<SubCallStarted, 'type' | 'runId' | 'cellId'>,
    Partial<Pick<SubCallFinished, 'response' | 'error' | 'usage' | 'latencyMs' | 'fallback' | 'cached' | 'replayed'>> {
  startedAt: number;
  finishedAt?: number;
  /** The nested run started by rlm_query, if any. */
  child?: RunNode;
  totals: NodeTotals;
}

type CellStarted = Extract<RunEvent, { type: 'cell.started' }>;
type CellFinished = Extract<RunEvent, { type: 'cell.finished' }>;

/** What the cell's events say (declared once, in CellResult), plus its place in the tree. */
export interface CellNode
  extends Pick<CellStarted, 'cellId' | 'turn' | 'code' | 'author'>,
    Partial<Pick<CellFinished, 'stdout' | 'stderr' | 'stdoutChars' | 'stderrChars' | 'stdoutCutAt' | 'stderrCutAt' | 'error' | 'newVariables' | 'durationMs' | 'outIndex' | 'final' | 'timedOut' | 'interrupted' | 'restarted'>> {
  startedAt: number;
  finishedAt?: number;
  subCalls: SubCallNode[];
  /** Large batches this cell sent (or was refused), as estimated before sending. */
  batchEstimates?: BatchEstimate[];
  /** Provider batches this cell's llm_query_batched calls went out as (batch.submitted/progress/ended). */
  providerBatches?: ProviderBatchNode[];
  totals: NodeTotals;
}

type BatchSubmitted = Extract<RunEvent, { type: 'batch.submitted' }>;

/** A provider batch as its events tell it: what was sent, and where its requests are now. */
export interface ProviderBatchNode extends Pick<BatchSubmitted, 'batchId' | 'provider' | 'endpoint' | 'model' | 'providerBatchId' | 'items' | 'resumed'> {
  status: string;
  counts: ProviderBatchCounts;
  submittedAt: number;
  /** The last poll's elapsed time since the batch was created (or taken up again). */
  elapsedMs: number;
  /** When that was measured (the last batch event's time): a live view counts on from here. */
  updatedAt: number;
  ended: boolean;
  cancelled?: true;
  /** The provider's own words when the batch failed as a whole. */
  failure?: string;
}

type BatchEstimate = Pick<Extract<RunEvent, { type: 'batch.estimated' }>, 'batchId' | 'prompts' | 'chars' | 'estimatedCostUsd' | 'refused' | 'batchPrice'>;

export interface TurnNode {
  turn: number;
  startedAt: number;
  /** The root model's full output for this turn (reasoning + code). */
  modelText?: string;
  usage?: TokenUsage;
  latencyMs?: number;
  requestBytes?: number;
  forcedFinal?: boolean;
  /** A turn of the parent record, re-run by `rlm continue`: its reply was not sent again. */
  replayed?: boolean;
  /** A turn holding a cell the user ran themselves (no model reply): shown as theirs. */
  author?: 'user';
  notices: Array<{ kind: string; message: string }>;
  cells: CellNode[];
  totals: NodeTotals;
}

type RunStarted = Extract<RunEvent, { type: 'run.started' }>;
type RunFinished = RecordedEvent<Extract<RunEvent, { type: 'run.finished' }>>;

/** What the run's events say (declared once there), plus its turns and rolled-up totals. */
export interface RunNode
  extends Pick<RunStarted, 'runId' | 'parentRunId' | 'parentCellId' | 'parentCallId' | 'depth' | 'question' | 'target' | 'priorTurns' | 'session' | 'continuedFrom'>,
    // Absent in child runs' records and in imported reference logs.
    Partial<Pick<RunStarted, 'context' | 'config' | 'protections'>>,
    Pick<RunFinished, 'answer' | 'partial' | 'forced' | 'error'> {
  startedAt: number;
  finishedAt?: number;
  /** 'running' until run.finished arrives; a file that ends without one is reported as 'incomplete'. */
  status: RunStatus | 'running' | 'incomplete';
  /** Which lines of the input the run saw and cited (absent in older files and child runs). */
  coverage?: CoverageRecord;
  /** Where a replay did not match its record. */
  divergences?: Array<{ turn: number; kind: string; detail: string; continued: boolean }>;
  /** The answer's citations found in the context, and those that were not (absent in older files). */
  references?: Reference[];
  unresolvedReferences?: UnresolvedCitation[];
  turns: TurnNode[];
  limitWarnings: Array<{ limit: LimitKind; value: number; max: number }>;
  fallbacks: Array<{ kind: string; detail: string }>;
  totals: NodeTotals;
}

/** A problem found while reading a file; reading goes on. */
export interface ReadProblem {
  line: number;
  kind:
    | 'truncated-line'
    | 'invalid-json'
    | 'unknown-event'
    | 'missing-end'
    | 'out-of-order'
    | 'orphan-event'
    | 'invalid-record'
    /** The header's version is newer than this reader; what it understands is still shown. */
    | 'newer-version';
  message: string;
}
