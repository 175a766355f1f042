// Parses `rlm eval` arguments. Model options follow `rlm ask`; keys come only from the environment.
import { parseArgs } from 'node:util';
import { parseLengthList } from '../../eval/tasks/taskLength';
import { parseSuiteList } from '../../eval/tasks/suites';
import type { RunLimits } from '../../core/loop/loopTypes';
import type { SubCallBatchOptions } from '../../core/loop/batchOptions';
import { BATCH_OPTIONS, parseBatchChoice } from '../support/batchArgs';
import { MODEL_OPTIONS, nonNegativeInt, parseLimits, parseModelChoices, positiveInt, UsageError, usageErrorFrom } from '../support/modelArgs';
import type { ModelChoice } from '../support/modelArgs';
import { EVAL_MODES } from './evalTypes';
import type { EvalMode, EvalPlanRecord } from './evalTypes';

export interface EvalArgs extends Omit<EvalPlanRecord, 'root' | 'sub'> {
  out?: string;
  resume: boolean;
  codeRoot?: string;
  /** Undefined with --scripted (the scripted servers supply the models). */
  root?: ModelChoice;
  sub?: ModelChoice;
  limits: Partial<RunLimits>;
  /** --batch: the tasks' llm_query_batched calls as provider batches. */
  batch?: SubCallBatchOptions;
  quiet: boolean;
  help: boolean;
}

const OPTIONS = {
  suite: { type: 'string' },
  lengths: { type: 'string' },
  modes: { type: 'string' },
  tasks: { type: 'string' },
  seed: { type: 'string' },
  scripted: { type: 'boolean' },
  out: { type: 'string' },
  resume: { type: 'boolean' },
  'code-root': { type: 'string' },
  ...MODEL_OPTIONS,
  'max-iterations': { type: 'string' },
  'max-sub-calls': { type: 'string' },
  'max-cost': { type: 'string' },
  timeout: { type: 'string' },
  'cell-timeout': { type: 'string' },
  ...BATCH_OPTIONS,
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parseEvalArgs(argv: string[]): EvalArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: false, strict: true });
  } catch (error) {
    throw usageErrorFrom(error);
  }
  const v = parsed.values;
  const base = { limits: {}, quiet: v.quiet ?? false, resume: v.resume ?? false, scripted: v.scripted ?? false };
  if (v.help) return { ...base, suites: [], lengths: [], modes: [], tasksPerLength: 1, seed: 1, help: true };
  const suites = wrap(() => parseSuiteList(v.suite ?? 'niah,oolong,pairs,code'));
  const lengths = wrap(() => parseLengthList(v.lengths ?? '32k'));
  const modes = parseModes(v.modes ?? 'rlm');
  const limits = parseLimits(v);
  const batch = parseBatchChoice(v);
  const models = v.scripted
    ? {}
    : parseModelChoices(v, 'missing --model (e.g. --base-url http://localhost:11434/v1 --model qwen3:8b), or use --scripted for an offline run');
  if (v.scripted && (v.model || v['base-url'] || v['sub-model'] || v['sub-base-url'])) {
    throw new UsageError('--scripted runs the scripted policy on local fake servers; it cannot be combined with --model, --base-url or --sub-*');
  }
  // They would have no effect on the scripted servers, and a flag must never be silently ignored.
  if (v.scripted && (v['stall-timeout'] !== undefined || v['max-response-mb'] !== undefined || v['response-timeout'] !== undefined)) {
    throw new UsageError('--stall-timeout, --max-response-mb and --response-timeout apply to real model servers; --scripted uses local fake ones');
  }
  return {
    ...base,
    suites,
    lengths,
    modes,
    tasksPerLength: v.tasks ? positiveInt(v.tasks, '--tasks') : 1,
    seed: v.seed ? nonNegativeInt(v.seed, '--seed') : 1,
    ...(v.out ? { out: v.out } : {}),
    ...(v['code-root'] ? { codeRoot: v['code-root'] } : {}),
    ...models,
    limits,
    ...(batch ? { batch } : {}),
    help: false,
  };
}

function parseModes(input: string): EvalMode[] {
  const modes = input.split(',').map((s) => s.trim()).filter(Boolean);
  if (modes.length === 0) throw new UsageError('--modes is empty; choose from rlm, direct, rlm-no-sub');
  for (const m of modes) if (!(EVAL_MODES as readonly string[]).includes(m)) throw new UsageError(`unknown mode "${m}"; choose from ${EVAL_MODES.join(', ')}`);
  return [...new Set(modes)] as EvalMode[];
}

function wrap<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
