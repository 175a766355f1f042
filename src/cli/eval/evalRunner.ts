// Drives an evaluation: plans the tasks, skips those a resumed results file already holds, generates
// each task once for all its modes, runs and scores it, and saves the results after every task.
import { createRunsFolder } from '../../core/trajectory/runsFolder';
import { join } from 'node:path';
import { generateTask, planTasks } from '../../eval/tasks/suites';
import type { BenchTask } from '../../eval/tasks/taskTypes';
import type { RunLimits } from '../../core/loop/loopTypes';
import type { ReplFactory } from '../../core/repl/replFactory';
import type { ModelClient } from '../../core/models/modelTypes';
import { modelRef } from '../../core/loop/limits';
import type { SubCallBatchOptions } from '../../core/loop/batchOptions';
import { oneLine } from '../support/errorLine';
import { loadResults, planMismatch, resultKey, saveResults } from './evalResults';
import { SCRIPTED_LABEL, RESULTS_VERSION } from './evalTypes';
import type { EvalMode, EvalPlanRecord, EvalResultsFile, TaskResult } from './evalTypes';
import { ProgressBar } from './progressBar';
import type { ProgressOutput } from './progressBar';
import { runTask } from './runTask';

interface EvalRunOptions {
  plan: Omit<EvalPlanRecord, 'root' | 'sub'>;
  outDir: string;
  resume: boolean;
  /** A real source tree for the code suite; undefined: the generated one. */
  codeRoot?: string;
  root: ModelClient;
  sub: ModelClient;
  repl: ReplFactory;
  limits: Partial<RunLimits>;
  batch?: SubCallBatchOptions;
  toolVersion: string;
  secrets: string[];
  signal: AbortSignal;
  progress: ProgressOutput;
  quiet: boolean;
  now: () => number;
}

export class EvalPlanError extends Error {
  constructor(
    readonly outDir: string,
    message: string,
  ) {
    super(message);
    this.name = 'EvalPlanError';
  }
}

export async function runEvaluation(options: EvalRunOptions): Promise<EvalResultsFile> {
  const plan: EvalPlanRecord = { ...options.plan, root: modelRef(options.root), sub: modelRef(options.sub) };
  createRunsFolder(join(options.outDir, 'trajectories'));
  const saved = loadResults(options.outDir);
  if (saved && !options.resume) {
    throw new EvalPlanError(options.outDir, `${options.outDir} already holds results: add --resume to continue them, or choose another --out`);
  }
  if (saved) {
    const why = planMismatch(saved.plan, plan);
    if (why) throw new EvalPlanError(options.outDir, `cannot resume ${options.outDir}: ${why}`);
  }
  const nowIso = (): string => new Date(options.now()).toISOString();
  // Cancelled and failed results are run again on resume; the others are kept.
  const kept = (saved?.results ?? []).filter((r) => r.status !== 'cancelled');
  const data: EvalResultsFile = {
    version: RESULTS_VERSION,
    label: plan.scripted ? SCRIPTED_LABEL : 'model',
    plan,
    startedAt: saved?.startedAt ?? nowIso(),
    updatedAt: nowIso(),
    complete: false,
    results: kept,
  };
  const done = new Set(kept.map(resultKey));
  const specs = planTasks(plan.suites, plan.lengths, plan.tasksPerLength, plan.seed);
  const total = specs.length * plan.modes.length;
  const bar = new ProgressBar(options.quiet ? { write: () => undefined } : options.progress, total, options.now(), options.now);
  let finished = done.size;
  try {
    for (const spec of specs) {
      const todo = plan.modes.filter((mode) => !done.has(resultKey({ id: spec.id, mode })));
      if (todo.length === 0) continue;
      bar.working(finished, `${spec.id} (generating)`);
      let task: BenchTask;
      try {
        task = generateTask(spec, options.codeRoot === undefined ? {} : { codeRoot: options.codeRoot });
      } catch (error) {
        throw new EvalPlanError(options.outDir, `cannot generate ${spec.id}: ${oneLine(error)}`);
      }
      for (const mode of todo) {
        if (options.signal.aborted) return finish(data, options, false);
        bar.working(finished, `${spec.id} ${mode}`);
        // A signal per task: the OpenAI SDK never removes the abort listener it adds to a request's
        // signal, so sharing one signal across hundreds of requests would pile listeners up on it.
        const taskController = new AbortController();
        const onAbort = (): void => taskController.abort(options.signal.reason);
        options.signal.addEventListener('abort', onAbort, { once: true });
        const result = await runTask(task, mode, {
          root: options.root,
          sub: options.sub,
          repl: options.repl,
          limits: options.limits,
          ...(options.batch ? { batch: options.batch } : {}),
          trajectoryPath: join(options.outDir, 'trajectories', trajectoryName(spec.id, mode)),
          toolVersion: options.toolVersion,
          secrets: options.secrets,
          scripted: plan.scripted,
          signal: taskController.signal,
          now: options.now,
        }).finally(() => options.signal.removeEventListener('abort', onAbort));
        data.results = [...data.results.filter((r) => resultKey(r) !== resultKey(result)), result];
        finished++;
        bar.finished(finished, `${spec.id} ${mode}`, outcome(result));
        data.updatedAt = nowIso();
        saveResults(options.outDir, data);
      }
    }
  } finally {
    bar.stop();
  }
  return finish(data, options, !options.signal.aborted);
}

function finish(data: EvalResultsFile, options: EvalRunOptions, complete: boolean): EvalResultsFile {
  data.complete = complete;
  data.updatedAt = new Date(options.now()).toISOString();
  saveResults(options.outDir, data);
  return data;
}

function trajectoryName(id: string, mode: EvalMode): string {
  // A resumed task writes a fresh file: a trajectory is a record and is never overwritten.
  const stamp = Date.now().toString(36);
  return mode === 'direct' ? `${id}-direct-${stamp}.direct.json` : `${id}-${mode}-${stamp}.rlm.jsonl`;
}

function outcome(r: TaskResult): string {
  const base = `score ${r.score.toFixed(2)}, ${(r.wallTimeMs / 1000).toFixed(1)} s, ${r.subCalls} sub-calls`;
  return r.status === 'completed' ? base : `${base} [${r.status}${r.error ? `: ${r.error.slice(0, 80)}` : ''}]`;
}
