// Runs one generated task in one mode and scores it: `rlm` and `rlm-no-sub` through the loop (with
// the trajectory recorded), `direct` as a single prompt holding as much of the context as fits.
import { writeFileSync } from 'node:fs';
import { scoreAnswer } from '../../eval/tasks/scorers';
import type { BenchTask } from '../../eval/tasks/taskTypes';
import type { RunLimits } from '../../core/loop/loopTypes';
import type { ReplFactory } from '../../core/repl/replFactory';
import { createRlmRun } from '../../core/loop/rlmRun';
import type { SubCallBatchOptions } from '../../core/loop/batchOptions';
import type { ModelClient } from '../../core/models/modelTypes';
import type { TrajectoryWriter } from '../../core/trajectory/trajectoryWriter';
import { oneLine } from '../support/errorLine';
import { openRunTrajectory } from '../support/runTrajectory';
import type { EvalMode, TaskResult } from './evalTypes';
import { buildDirectPrompt, DEFAULT_DIRECT_WINDOW_TOKENS, NO_SUB_CALLS_NOTE } from '../../eval/modePrompts';

interface TaskRunDeps {
  root: ModelClient;
  sub: ModelClient;
  repl: ReplFactory;
  limits: Partial<RunLimits>;
  batch?: SubCallBatchOptions;
  /** Where this task's trajectory goes (.rlm.jsonl for the loop, .direct.json for direct mode). */
  trajectoryPath: string;
  toolVersion: string;
  secrets: string[];
  scripted: boolean;
  signal: AbortSignal;
  now: () => number;
}

const ANSWER_CLIP = 4_000;
const DIRECT_REPLY_TOKENS = 4_096;

function clip(text: string | undefined | null): string | null {
  if (text === undefined || text === null) return null;
  return text.length > ANSWER_CLIP ? `${text.slice(0, ANSWER_CLIP)}… [${text.length} chars]` : text;
}

function base(task: BenchTask, mode: EvalMode, deps: TaskRunDeps): Pick<TaskResult, 'id' | 'suite' | 'lengthTokens' | 'mode' | 'expected' | 'contextChars' | 'trajectory' | 'scripted'> {
  return {
    id: task.id,
    suite: task.suite,
    lengthTokens: task.lengthTokens,
    mode,
    expected: clip(task.answer) ?? '',
    contextChars: task.contextChars,
    trajectory: deps.trajectoryPath,
    scripted: deps.scripted,
  };
}

export async function runTask(task: BenchTask, mode: EvalMode, deps: TaskRunDeps): Promise<TaskResult> {
  return mode === 'direct' ? runDirect(task, deps) : runLoop(task, mode, deps);
}

async function runLoop(task: BenchTask, mode: EvalMode, deps: TaskRunDeps): Promise<TaskResult> {
  const noSub = mode === 'rlm-no-sub';
  const limits: Partial<RunLimits> = noSub ? { ...deps.limits, maxSubCalls: 0, maxDepth: 0 } : deps.limits;
  const question = noSub ? `${task.question}\n\n${NO_SUB_CALLS_NOTE}` : task.question;
  const started = deps.now();
  let writer: TrajectoryWriter | undefined;
  const run = createRlmRun({ question, context: task.context, root: deps.root, sub: deps.sub, limits, repl: deps.repl, signal: deps.signal, ...(deps.batch && !noSub ? { batch: deps.batch } : {}) });
  try {
    for await (const record of run) {
      if (!writer && record.type === 'run.started') writer = openRunTrajectory(deps.trajectoryPath, record, deps.toolVersion, deps.secrets);
      writer?.write(record);
    }
    const result = await run.run();
    writer?.close({ status: result.status === 'error' ? 'error' : 'cancelled' });
    return {
      ...base(task, mode, deps),
      score: scoreAnswer(task, result.answer),
      status: result.status,
      answer: clip(result.answer),
      ...(result.error ? { error: `${result.error.kind}: ${oneLine(result.error.message)}` } : {}),
      inputTokens: result.totals.inputTokens,
      outputTokens: result.totals.outputTokens,
      costUsd: result.totals.costUsd,
      ...(result.totals.cacheReadTokens ? { cacheReadTokens: result.totals.cacheReadTokens } : {}),
      ...(result.totals.savedUsd ? { savedUsd: result.totals.savedUsd } : {}),
      wallTimeMs: result.totals.wallTimeMs,
      subCalls: result.totals.subCalls,
      iterations: result.totals.iterations,
    };
  } catch (error) {
    writer?.abort(oneLine(error));
    return failed(task, mode, deps, error, deps.now() - started);
  }
}

async function runDirect(task: BenchTask, deps: TaskRunDeps): Promise<TaskResult> {
  const window = deps.root.contextWindowTokens ?? DEFAULT_DIRECT_WINDOW_TOKENS;
  const prompt = buildDirectPrompt(task.question, task.context, window, DIRECT_REPLY_TOKENS);
  const truncated = prompt.truncated ? { truncated: { shownChars: prompt.shownChars, totalChars: prompt.totalChars } } : {};
  const started = deps.now();
  try {
    const completion = await deps.root.complete(prompt.messages, { maxTokens: DIRECT_REPLY_TOKENS, signal: deps.signal });
    // The record keeps sizes, not the prompt: the context is already on disk or regenerable from the seed.
    const { messages, ...sizes } = prompt;
    const record = {
      mode: 'direct',
      question: task.question,
      windowTokens: window,
      ...sizes,
      promptChars: messages[0]!.content.length,
      response: completion.text,
      usage: completion.usage,
      finishReason: completion.finishReason,
      latencyMs: completion.latencyMs,
    };
    writeFileSync(deps.trajectoryPath, `${JSON.stringify(record, null, 2)}\n`);
    return {
      ...base(task, 'direct', deps),
      ...truncated,
      score: scoreAnswer(task, completion.text),
      status: 'completed',
      answer: clip(completion.text),
      inputTokens: completion.usage.inputTokens,
      outputTokens: completion.usage.outputTokens,
      costUsd: completion.usage.costUsd,
      ...(completion.usage.cacheReadTokens ? { cacheReadTokens: completion.usage.cacheReadTokens } : {}),
      ...(completion.usage.savedUsd ? { savedUsd: completion.usage.savedUsd } : {}),
      wallTimeMs: deps.now() - started,
      subCalls: 0,
      iterations: 1,
    };
  } catch (error) {
    return { ...failed(task, 'direct', deps, error, deps.now() - started), ...truncated };
  }
}

function failed(task: BenchTask, mode: EvalMode, deps: TaskRunDeps, error: unknown, wallTimeMs: number): TaskResult {
  return {
    ...base(task, mode, deps),
    score: 0,
    status: deps.signal.aborted ? 'cancelled' : 'error',
    answer: null,
    error: oneLine(error),
    inputTokens: 0,
    outputTokens: 0,
    // What a failed run spent is not known here; the trajectory holds whatever was recorded.
    costUsd: null,
    wallTimeMs,
    subCalls: 0,
    iterations: 0,
  };
}
