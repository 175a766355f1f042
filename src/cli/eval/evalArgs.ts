// Parses `rlm eval` arguments. Model options follow `rlm ask`; keys come only from the environment.
import { parseArgs } from 'node:util';
import { parseLengthList } from '../../../bench/tasks/taskLength';
import { parseSuiteList } from '../../../bench/tasks/suites';
import type { SuiteName } from '../../../bench/tasks/taskTypes';
import type { RunLimits } from '../../core/loop/loopTypes';
import type { ProviderKind } from '../../core/models/modelTypes';
import type { ModelChoice } from '../askArgs';
import { UsageError } from '../askArgs';
import { EVAL_MODES } from './evalTypes';
import type { EvalMode } from './evalTypes';

export interface EvalArgs {
  suites: SuiteName[];
  lengths: number[];
  modes: EvalMode[];
  tasksPerLength: number;
  seed: number;
  scripted: boolean;
  out?: string;
  resume: boolean;
  codeRoot?: string;
  /** Undefined with --scripted (the scripted servers supply the models). */
  root?: ModelChoice;
  sub?: ModelChoice;
  limits: Partial<RunLimits>;
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
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string', short: 'm' },
  'api-key-env': { type: 'string' },
  'context-window': { type: 'string' },
  'sub-provider': { type: 'string' },
  'sub-base-url': { type: 'string' },
  'sub-model': { type: 'string' },
  'sub-api-key-env': { type: 'string' },
  'sub-context-window': { type: 'string' },
  'max-iterations': { type: 'string' },
  'max-sub-calls': { type: 'string' },
  'max-cost': { type: 'string' },
  timeout: { type: 'string' },
  'cell-timeout': { type: 'string' },
  quiet: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

const DEFAULT_KEY_ENV: Record<ProviderKind, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

export function parseEvalArgs(argv: string[]): EvalArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: false, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
  const v = parsed.values;
  const base = { limits: {}, quiet: v.quiet ?? false, resume: v.resume ?? false, scripted: v.scripted ?? false };
  if (v.help) return { ...base, suites: [], lengths: [], modes: [], tasksPerLength: 1, seed: 1, help: true };
  const suites = wrap(() => parseSuiteList(v.suite ?? 'niah,oolong,pairs,code'));
  const lengths = wrap(() => parseLengthList(v.lengths ?? '32k'));
  const modes = parseModes(v.modes ?? 'rlm');
  const limits: Partial<RunLimits> = {};
  if (v['max-iterations']) limits.maxIterations = positiveInt(v['max-iterations'], '--max-iterations');
  if (v['max-sub-calls'] !== undefined) limits.maxSubCalls = positiveInt(v['max-sub-calls'], '--max-sub-calls');
  if (v['max-cost']) limits.maxCostUsd = positiveNumber(v['max-cost'], '--max-cost');
  if (v.timeout) limits.maxWallTimeMs = Math.round(positiveNumber(v.timeout, '--timeout') * 1000);
  if (v['cell-timeout']) limits.cellTimeoutMs = Math.round(positiveNumber(v['cell-timeout'], '--cell-timeout') * 1000);
  const models = v.scripted ? {} : parseModels(v);
  if (v.scripted && (v.model || v['base-url'] || v['sub-model'] || v['sub-base-url'])) {
    throw new UsageError('--scripted runs the scripted policy on local fake servers; it cannot be combined with --model, --base-url or --sub-*');
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
    help: false,
  };
}

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

function parseModels(v: Values): { root: ModelChoice; sub: ModelChoice } {
  if (!v.model?.trim()) {
    throw new UsageError('missing --model (e.g. --base-url http://localhost:11434/v1 --model qwen3:8b), or use --scripted for an offline run');
  }
  const provider = providerOf(v.provider ?? 'openai', '--provider');
  const root: ModelChoice = {
    provider,
    ...(v['base-url'] ? { baseUrl: v['base-url'] } : {}),
    model: v.model.trim(),
    keyEnv: v['api-key-env'] ?? DEFAULT_KEY_ENV[provider],
    ...(v['context-window'] ? { contextWindowTokens: positiveInt(v['context-window'], '--context-window') } : {}),
  };
  const subProvider = v['sub-provider'] ? providerOf(v['sub-provider'], '--sub-provider') : provider;
  const same = subProvider === provider;
  if (!same && !v['sub-model']) throw new UsageError('--sub-provider differs from --provider, so --sub-model is needed too');
  const subBase = v['sub-base-url'] ?? (same ? root.baseUrl : undefined);
  const subWindow = v['sub-context-window'] ?? (v['sub-model'] ? undefined : v['context-window']);
  const sub: ModelChoice = {
    provider: subProvider,
    ...(subBase ? { baseUrl: subBase } : {}),
    model: v['sub-model']?.trim() || root.model,
    keyEnv: v['sub-api-key-env'] ?? (same ? root.keyEnv : DEFAULT_KEY_ENV[subProvider]),
    ...(subWindow ? { contextWindowTokens: positiveInt(subWindow, '--sub-context-window') } : {}),
  };
  return { root, sub };
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

function providerOf(value: string, flag: string): ProviderKind {
  if (value === 'openai' || value === 'anthropic') return value;
  throw new UsageError(`${flag} must be openai or anthropic (use openai for any OpenAI-compatible server), got "${value}"`);
}

function positiveNumber(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number, got "${value}"`);
  return n;
}

function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a whole number above 0, got "${value}"`);
  return n;
}

function nonNegativeInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
  return n;
}
