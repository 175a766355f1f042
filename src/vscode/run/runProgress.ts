// Folds a run's events into the figures the status bar, the progress notification and the sidebar's
// live line show. Child runs (rlm_query) count towards the same totals.
import type { EventRecord } from '../../core/trajectory/events';
import type { RunLiveLine } from '../../shared/sidebarState';

export interface RunProgress extends RunLiveLine {
  rootRunId?: string;
  /** The root model's text for the current turn so far (streamed deltas). */
  streamingText: string;
  finished: boolean;
}

export const STREAMING_TAIL_CHARS = 2000;

export function initialProgress(): RunProgress {
  return {
    turn: 0,
    subCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: null,
    costUnknown: false,
    activity: 'starting',
    streamingText: '',
    finished: false,
  };
}

function addCost(progress: RunProgress, cost: number | null, includedInPlan: boolean | undefined): void {
  if (includedInPlan) progress.includedInPlan = true;
  if (cost === null) progress.costUnknown = true;
  else progress.costUsd = (progress.costUsd ?? 0) + cost;
}

/** Returns a new progress object with `record` applied. */
export function reduceProgress(previous: RunProgress, record: EventRecord): RunProgress {
  const p: RunProgress = { ...previous };
  const isRoot = p.rootRunId === undefined || record.runId === p.rootRunId;
  switch (record.type) {
    case 'run.started':
      if (p.rootRunId === undefined) p.rootRunId = record.runId;
      p.activity = isRoot ? 'starting' : 'sub-run started';
      break;
    case 'turn.started':
      if (isRoot) {
        p.turn = record.turn;
        p.streamingText = '';
        p.activity = 'waiting for the model';
      }
      break;
    case 'model.delta':
      if (isRoot) {
        p.streamingText = (p.streamingText + record.text).slice(-STREAMING_TAIL_CHARS);
        p.activity = 'model is writing';
      }
      break;
    case 'model.output':
      p.inputTokens += record.usage.inputTokens;
      p.outputTokens += record.usage.outputTokens;
      addCost(p, record.usage.costUsd, record.usage.includedInPlan);
      if (isRoot) p.streamingText = record.text.slice(-STREAMING_TAIL_CHARS);
      break;
    case 'cell.started':
      if (isRoot) p.activity = `running cell (turn ${p.turn})`;
      break;
    case 'subcall.started':
      p.activity = 'sub-calls in progress';
      break;
    case 'subcall.finished':
      p.subCalls += 1;
      p.inputTokens += record.usage.inputTokens;
      p.outputTokens += record.usage.outputTokens;
      addCost(p, record.usage.costUsd, record.usage.includedInPlan);
      break;
    case 'run.finished':
      if (isRoot) {
        p.finished = true;
        p.activity = record.status;
        // The loop's totals are authoritative (they include anything we did not see streamed).
        p.inputTokens = record.totals.inputTokens;
        p.outputTokens = record.totals.outputTokens;
        p.costUsd = record.totals.costUsd;
        p.costUnknown = record.totals.costUnknown;
        if (record.totals.includedInPlan) p.includedInPlan = true;
        p.subCalls = record.totals.subCalls;
      }
      break;
    default:
      break;
  }
  return p;
}
