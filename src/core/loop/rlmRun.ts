// createRlmRun: the public entry of the loop. The run is an async iterable of EventRecords plus
// run(); it starts on the first of either. Child runs share its event stream and budget.
import type { EventRecord } from '../trajectory/events';
import { SharedBudget } from './budget';
import { resolveLimits } from './limits';
import { BudgetExceededError } from './loopErrors';
import type { RlmRun, RunOptions, RunResult } from './loopTypes';
import { executeRun } from './runDriver';
import { EventStamp } from './runTree';
import { runController } from './runSignal';
import type { RunTree } from './runTree';
import { UsageMeter } from './usageMeter';

export function createRlmRun(options: RunOptions): RlmRun {
  const limits = resolveLimits(options.limits);
  if (!options.question.trim()) throw new TypeError('createRlmRun: the question is empty');
  const now = options.now ?? Date.now;
  const newId = options.newId ? () => options.newId!() : randomIdFactory();
  const runId = newId('run');

  const queue: EventRecord[] = [];
  let wake: (() => void) | undefined;
  let iterating = false;
  let driving = false;
  let done = false;
  let result: Promise<RunResult> | undefined;

  const sink = (record: EventRecord): void => {
    // Buffer only for an iterator (present or still possible); run() alone keeps nothing.
    if (iterating || !driving) queue.push(record);
    wake?.();
  };

  function start(): Promise<RunResult> {
    if (result) return result;
    const { controller, release } = runController(options.signal);
    const startedAt = now();
    const meter = new UsageMeter(startedAt);
    const budget = new SharedBudget(limits, meter, startedAt, now);
    const wallTimer =
      limits.maxWallTimeMs !== undefined
        ? setTimeout(() => controller.abort(new BudgetExceededError('wallTime', now() - startedAt, limits.maxWallTimeMs!)), limits.maxWallTimeMs)
        : undefined;
    const tree: RunTree = {
      events: new EventStamp(now, sink),
      budget,
      limits,
      root: options.root,
      sub: options.sub ?? options.root,
      repl: options.repl,
      ...(options.subCallCache ? { subCallCache: options.subCallCache } : {}),
      ...(options.batch && (options.batch.mode !== 'off' || options.batch.recorded?.length) ? { batch: { options: options.batch, unsupported: new Set<string>() } } : {}),
      now,
      newId,
    };
    result = executeRun(tree, {
      runId,
      question: options.question,
      context: options.context,
      ...(options.target ? { target: options.target } : {}),
      ...(options.priorTurns ? { priorTurns: options.priorTurns } : {}),
      ...(options.userCells?.length ? { userCells: options.userCells } : {}),
      depth: 0,
      meter,
      signal: controller.signal,
      ...(options.session ? { session: options.session } : {}),
      ...(options.sessionBridge ? { sessionBridge: options.sessionBridge } : {}),
      ...(options.replay ? { replay: options.replay } : {}),
      ...(options.onAnswer ? { onAnswer: options.onAnswer } : {}),
    }).finally(() => {
      clearTimeout(wallTimer);
      release();
      done = true;
      wake?.();
    });
    return result;
  }

  return {
    runId,
    run(): Promise<RunResult> {
      driving = true;
      if (!iterating) queue.length = 0;
      return start();
    },
    [Symbol.asyncIterator](): AsyncIterator<EventRecord> {
      if (iterating) throw new Error('createRlmRun: the run can be iterated only once');
      iterating = true;
      const finished = start();
      return {
        async next(): Promise<IteratorResult<EventRecord>> {
          for (;;) {
            const record = queue.shift();
            if (record) return { value: record, done: false };
            if (done) {
              await finished;
              return { value: undefined, done: true };
            }
            await new Promise<void>((resolve) => (wake = resolve));
            wake = undefined;
          }
        },
        // Leaving the loop early does not stop the run (the signal does); it only stops buffering.
        async return(): Promise<IteratorResult<EventRecord>> {
          iterating = false;
          driving = true;
          queue.length = 0;
          return { value: undefined, done: true };
        },
      };
    },
  };
}

function randomIdFactory(): (prefix: string) => string {
  const base = Math.random().toString(36).slice(2, 8);
  let counter = 0;
  return (prefix) => `${prefix}-${base}-${(++counter).toString(36)}`;
}
