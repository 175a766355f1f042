// What a recorded run gives a replay: its root turns, each with the cells that ran and the sub-call
// answers they got, read from the run tree of a .rlm.jsonl file. Only the root's cells are re-run:
// a child run (rlm_query) is answered by its recorded answer, as any other sub-call.
import type { ContinuedFrom, ModelRef, RecordedRunError } from '../trajectory/events';
import type { CellNode, RunNode } from '../trajectory/treeTypes';

export interface RecordedSubCall {
  kind: 'llm_query' | 'rlm_query';
  prompt: string;
  response?: string;
  error?: RecordedRunError;
  model: ModelRef;
}

export interface ReplayCell {
  code: string;
  /** The output as recorded (captured; when cut, its real head ends at stdoutCutAt). */
  stdout: string;
  stdoutCutAt?: number;
  error?: { type: string; message: string };
  subCalls: RecordedSubCall[];
}

interface ReplayTurn {
  turn: number;
  /** The root's reply that turn, shown again (marked replayed) in the new record. */
  modelText?: string;
  /** A turn of the user's own cells (run from the view after the run): replayed as theirs. */
  author?: 'user';
  cells: ReplayCell[];
}

interface ReplayPlan {
  /** The recorded run's id, question and answer. */
  runId: string;
  question: string;
  answer?: string;
  turns: ReplayTurn[];
  /** `context` as the record bound it: its size tells a changed input before any cell runs. */
  contextChars?: number;
  contextFiles?: number;
}

/** What a continuation hands the loop (RunOptions.replay): the plan, and where it came from for run.started. */
export interface ReplayInput {
  plan: ReplayPlan;
  from: ContinuedFrom;
}

/** Raised when the record cannot be replayed as asked (no such turn, a run still going). */
export class ReplayPlanError extends Error {
  readonly kind = 'ReplayPlanError';
  constructor(message: string) {
    super(message);
    this.name = 'ReplayPlanError';
  }
}

/**
 * The turns to re-run: all of them, or with `fromTurn` only 1..fromTurn-1 (a fork: the root takes over
 * at fromTurn). A turn whose cell was cut short (timed out, interrupted, REPL restarted) is replayed as
 * recorded: its divergence, if any, is reported.
 */
export function replayPlanOf(run: RunNode, fromTurn?: number): ReplayPlan {
  const last = run.turns.at(-1)?.turn ?? 0;
  if (fromTurn !== undefined) {
    if (!Number.isInteger(fromTurn) || fromTurn < 1) throw new ReplayPlanError(`--from-turn must be a whole number from 1, not ${fromTurn}`);
    if (fromTurn > last + 1) throw new ReplayPlanError(`the recorded run has ${last} turn${last === 1 ? '' : 's'}; --from-turn can be at most ${last + 1}`);
  }
  const upto = fromTurn === undefined ? Infinity : fromTurn - 1;
  const turns: ReplayTurn[] = run.turns
    .filter((t) => t.turn <= upto)
    .map((t) => ({ turn: t.turn, ...(t.modelText !== undefined ? { modelText: t.modelText } : {}), ...(t.author === 'user' ? { author: 'user' as const } : {}), cells: t.cells.filter((c) => (c.finishedAt !== undefined || c.stdout !== undefined) && !stoppedUserCell(c)).map(replayCell) }))
    // A user's turn left with nothing to replay is left out.
    .filter((t) => t.author !== 'user' || t.cells.length > 0);
  return {
    runId: run.runId,
    question: run.question,
    ...(run.answer !== undefined ? { answer: run.answer } : {}),
    turns,
    ...(run.context ? { contextChars: run.context.totalChars, contextFiles: run.context.fileCount } : {}),
  };
}

/**
 * A user's cell they stopped, or that hit the cell timeout, was an experiment cut short: replaying it
 * would only run to the timeout again. (The root's cut cells are replayed, as its next turns read them.)
 */
function stoppedUserCell(cell: CellNode): boolean {
  return cell.author === 'user' && (cell.interrupted === true || cell.timedOut === true);
}

function replayCell(cell: CellNode): ReplayCell {
  const subCalls: RecordedSubCall[] = cell.subCalls.map((call) => ({
    kind: call.kind,
    prompt: call.prompt,
    ...(call.response !== undefined ? { response: call.response } : {}),
    ...(call.error !== undefined ? { error: call.error } : {}),
    model: call.model,
  }));
  const stdout = cell.stdout ?? '';
  return {
    code: cell.code,
    stdout,
    ...(cell.stdoutCutAt !== undefined ? { stdoutCutAt: cell.stdoutCutAt } : {}),
    ...(cell.error ? { error: { type: cell.error.type, message: cell.error.message } } : {}),
    subCalls,
  };
}
