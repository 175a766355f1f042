// Drives one run an agent asked for outside VS Code (`rlm mcp`): the same loop `rlm ask` runs, with
// every record handed to the caller (the trajectory file) and the live figures (turns, sub-calls)
// reported as they change. The caller's signal stops it; the loop reacts within a cell's interrupt.
import type { ContextPlan } from '../context/contextTypes';
import type { RlmRun, RunLimits, RunOptions, RunResult, SubCallCacheUse } from '../loop/loopTypes';
import type { ReplFactory } from '../repl/replFactory';
import type { ModelClient } from '../models/modelTypes';
import type { EventRecord } from '../trajectory/events';

interface AgentProgress {
  turns: number;
  subCalls: number;
  /** What the run is doing now, in a few words. */
  activity: string;
}

interface AgentRunOptions {
  question: string;
  plan: ContextPlan;
  root: ModelClient;
  sub?: ModelClient;
  limits: Partial<RunLimits>;
  repl: ReplFactory;
  signal: AbortSignal;
  subCallCache?: SubCallCacheUse;
  /** The loop's constructor (core/loop/rlmRun.ts's createRlmRun), injected so this module stays light. */
  createRun: (options: RunOptions) => RlmRun;
  /** Every record, in order (for the trajectory). A throw stops the run. */
  onRecord?: (record: EventRecord) => void;
  /** Called when the turn or sub-call count changes. */
  onProgress?: (progress: AgentProgress) => void;
}

export async function runAgentAsk(options: AgentRunOptions): Promise<RunResult> {
  const run = options.createRun({
    question: options.question,
    context: { kind: 'plan', plan: options.plan },
    target: options.plan.target,
    root: options.root,
    ...(options.sub ? { sub: options.sub } : {}),
    limits: options.limits,
    repl: options.repl,
    signal: options.signal,
    ...(options.subCallCache ? { subCallCache: options.subCallCache } : {}),
  });
  const progress: AgentProgress = { turns: 0, subCalls: 0, activity: 'starting' };
  for await (const record of run) {
    options.onRecord?.(record);
    const activity = activityOf(record, run.runId);
    if (activity === undefined) continue;
    if (record.type === 'turn.started' && record.runId === run.runId) progress.turns = record.turn;
    if (record.type === 'subcall.started' || record.type === 'child.started') progress.subCalls += 1;
    progress.activity = activity;
    options.onProgress?.({ ...progress });
  }
  return run.run();
}

/** The records that change what a progress line says; undefined for the rest (deltas, outputs). */
function activityOf(record: EventRecord, rootRunId: string): string | undefined {
  switch (record.type) {
    case 'turn.started':
      return record.runId === rootRunId ? `turn ${record.turn}: asking the root model` : undefined;
    case 'cell.started':
      return record.runId === rootRunId ? 'running a cell' : undefined;
    case 'subcall.started':
      return 'sub-calls running';
    case 'child.started':
      return 'a child run started';
    case 'answer':
      return record.runId === rootRunId ? 'answered; checking references' : undefined;
    default:
      return undefined;
  }
}
