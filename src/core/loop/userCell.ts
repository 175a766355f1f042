// A cell the user runs themselves in a run's REPL, after the run (poking at the session from its view):
// the same sandbox, `context` and variables the root left, with llm_query / rlm_query answered live and
// billed. Its events join the run's record as the user's (cell.started / subcall.started author 'user'),
// numbered after the run's last record, in a turn of its own after the root's turns.
import type { ModelClient } from '../models/modelTypes';
import type { CellResult, ReplSession } from '../repl/replTypes';
import type { EventRecord, UsageTotals } from '../trajectory/events';
import { SharedBudget } from './budget';
import { resolveLimits } from './limits';
import { LoopError } from './loopErrors';
import type { RunLimits, SubCallCacheUse, UserCellNote } from './loopTypes';
import type { BridgeRouter, ReplFactory } from '../repl/replFactory';
import { buildObservation } from './observation';
import { startChildRun } from './runDriver';
import { EventStamp } from './runTree';
import { runController } from './runSignal';
import type { RunTree } from './runTree';
import { createSubCallHandler } from './subCallHandler';
import { runReplCell } from './turnSteps';
import { UsageMeter } from './usageMeter';

export interface UserCellOptions {
  code: string;
  /** The run the cell is recorded in (a finished root run whose session is still open). */
  runId: string;
  /** The cell's turn: after every turn the run has, root's or user's. */
  turn: number;
  /** The seq of the last record of that run's stream: the cell's records follow it. */
  lastSeq: number;
  /** The run's REPL, kept open after the run, and the router its bridge was acquired with. */
  session: ReplSession;
  sessionBridge: BridgeRouter;
  /** Answers the cell's llm_query (and rlm_query's child runs, with `root`). */
  sub: ModelClient;
  root?: ModelClient;
  /** For rlm_query's child runs: each gets a REPL of its own. */
  repl: ReplFactory;
  /** The run's limits: the cell timeout, sub-call caps and timeouts apply to the user's cell too. */
  limits?: Partial<RunLimits>;
  subCallCache?: SubCallCacheUse;
  /** Stop: interrupts the cell and its sub-calls. */
  signal?: AbortSignal;
  sink: (record: EventRecord) => void;
  now?: () => number;
  newId?: (prefix: string) => string;
}

export interface UserCellResult {
  cellId: string;
  cell: CellResult;
  note: UserCellNote;
  /** What the cell's sub-calls cost (billed to the user). */
  totals: UsageTotals;
}

export async function runUserCell(options: UserCellOptions): Promise<UserCellResult> {
  if (!options.code.trim()) throw new LoopError('the cell is empty: type some Python to run');
  const limits = resolveLimits(options.limits);
  const now = options.now ?? Date.now;
  const newId = options.newId ?? randomIds();
  const { controller, release } = runController(options.signal);
  const startedAt = now();
  const meter = new UsageMeter(startedAt);
  const sub = options.sub;
  const tree: RunTree = {
    events: new EventStamp(now, options.sink, options.lastSeq),
    budget: new SharedBudget(limits, meter, startedAt, now),
    limits,
    root: options.root ?? sub,
    sub,
    repl: options.repl,
    ...(options.subCallCache ? { subCallCache: options.subCallCache } : {}),
    now,
    newId,
  };
  const cellId = newId('cell');
  const handler = createSubCallHandler({
    tree,
    runId: options.runId,
    depth: 0,
    meter,
    runSignal: controller.signal,
    cellId: () => cellId,
    author: 'user',
    startChild: (child) => startChildRun(tree, options.session, child),
  });
  const unroute = options.sessionBridge.route(handler);
  const unlisten = options.session.onOutput((event) => tree.events.emit({ type: 'cell.output', runId: options.runId, cellId, stream: event.stream, text: event.text }));
  try {
    const run = { runId: options.runId, signal: controller.signal, meter };
    const cell = await runReplCell(tree, run, options.session, cellId, options.turn, options.code, 'user');
    return { cellId, cell, note: { code: options.code, observation: buildObservation(cell, limits.observationMaxChars) }, totals: meter.totals(now()) };
  } finally {
    unlisten();
    unroute();
    release();
  }
}

function randomIds(): (prefix: string) => string {
  const base = Math.random().toString(36).slice(2, 8);
  let counter = 0;
  return (prefix) => `${prefix}-u${base}-${(++counter).toString(36)}`;
}
