// The live figures of a run (turn, sub-calls, tokens, cost, what it is doing), read off the run's
// tree. The TreeBuilder is the one reducer of a run's events: the status bar, the progress
// notification, the chat and the trajectory view all read the same tree, so they show the same
// numbers. Child runs (rlm_query) count towards the root's totals, as in the tree.
import { runIsNoCharge } from '../../core/models/pricing';
import type { EventRecord } from '../../core/trajectory/events';
import type { RunNode } from '../../core/trajectory/treeTypes';
import { liveLineOf } from '../../shared/text/liveLine';
import type { RunLiveLine } from '../../shared/sidebarState';

export interface RunProgress extends RunLiveLine {
  rootRunId?: string;
  /** The root model's text of the current turn so far (streamed, then complete). */
  streamingText: string;
  finished: boolean;
}

export function initialProgress(): RunProgress {
  return {
    turn: 0,
    subCalls: 0,
    inputTokens: 0,
    outputTokens: 0,
    costUsd: null,
    costUnknown: false,
    costLocal: false,
    activity: 'starting the Python sandbox',
    streamingText: '',
    finished: false,
  };
}

/** True when every model the run was configured with is served with no per-token charge. */
function runIsLocal(run: Pick<RunNode, 'config'>): boolean {
  return runIsNoCharge(run.config);
}

/** The figures of `run` (the root of the tree) as every surface shows them; no walk below its turns. */
export function progressOf(run: RunNode | undefined, activity: string): RunProgress {
  if (!run) return { ...initialProgress(), activity };
  const last = run.turns[run.turns.length - 1];
  return {
    rootRunId: run.runId,
    // The root's turns, as the view's header counts them: the user's own cells are not iterations.
    ...liveLineOf(run.totals, run.turns.filter((t) => t.author !== 'user').length, runIsLocal(run), activity),
    streamingText: last?.modelText ?? '',
    finished: run.status !== 'running',
  };
}

/** What the run is doing after `record`, in words for the status bar's tooltip and the chat. */
export function activityAfter(previous: string, record: EventRecord, rootRunId: string | undefined): string {
  const isRoot = rootRunId === undefined || record.runId === rootRunId;
  switch (record.type) {
    case 'run.started':
      return isRoot ? 'binding the files in the sandbox' : 'a sub-run started';
    case 'turn.started':
      return isRoot ? 'the model is thinking' : previous;
    case 'model.delta':
      return isRoot ? 'the model is writing' : previous;
    case 'cell.started':
      return isRoot ? 'running the code' : previous;
    case 'subcall.started':
      return 'waiting for sub-calls';
    case 'run.finished':
      return isRoot ? 'finished' : previous;
    default:
      return previous;
  }
}
