// Parses `rlm ask` arguments into plain options. Keys never come from a flag value: only the name of
// an environment variable may be given.
import { parseArgs } from 'node:util';
import type { ProviderKind } from '../core/models/modelTypes';
import type { RunLimits } from '../core/loop/loopTypes';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ModelChoice {
  provider: ProviderKind;
  baseUrl?: string;
  model: string;
  /** The environment variable the key is read from. */
  keyEnv: string;
  contextWindowTokens?: number;
}

export interface AskArgs {
  paths: string[];
  question: string;
  root: ModelChoice;
  sub: ModelChoice;
  limits: Partial<RunLimits>;
  trajectory?: string;
  json: boolean;
  quiet: boolean;
  verbose: boolean;
  help: boolean;
}

const OPTIONS = {
  question: { type: 'string', short: 'q' },
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
  'max-depth': { type: 'string' },
  'max-sub-calls': { type: 'string' },
  'max-tokens': { type: 'string' },
  'max-cost': { type: 'string' },
  timeout: { type: 'string' },
  'cell-timeout': { type: 'string' },
  trajectory: { type: 'string' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const;

const DEFAULT_KEY_ENV: Record<ProviderKind, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

export function parseAskArgs(argv: string[]): AskArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
  const v = parsed.values;
  const help = v.help ?? false;
  if (help) return { paths: [], question: '', root: placeholderModel(), sub: placeholderModel(), limits: {}, json: false, quiet: false, verbose: false, help };
  if (parsed.positionals.length === 0) throw new UsageError('give at least one file or folder to ask about');
  const question = v.question?.trim() ?? '';
  if (!question) throw new UsageError('missing the question: add -q "<question>"');
  if (v.quiet && v.verbose) throw new UsageError('--quiet and --verbose cannot be used together');

  const provider = providerOf(v.provider ?? 'openai', '--provider');
  if (!v.model?.trim()) throw new UsageError('missing --model, e.g. --model gpt-4.1-mini or --provider anthropic --model claude-sonnet-4-5');
  const root: ModelChoice = {
    provider,
    ...(v['base-url'] ? { baseUrl: v['base-url'] } : {}),
    model: v.model.trim(),
    keyEnv: v['api-key-env'] ?? DEFAULT_KEY_ENV[provider],
    ...(v['context-window'] ? { contextWindowTokens: positiveInt(v['context-window'], '--context-window') } : {}),
  };
  const subProvider = v['sub-provider'] ? providerOf(v['sub-provider'], '--sub-provider') : provider;
  const sameProvider = subProvider === provider;
  const subWindow = v['sub-context-window'] ?? (v['sub-model'] ? undefined : v['context-window']);
  const sub: ModelChoice = {
    provider: subProvider,
    ...((v['sub-base-url'] ?? (sameProvider ? root.baseUrl : undefined)) ? { baseUrl: v['sub-base-url'] ?? root.baseUrl } : {}),
    model: v['sub-model']?.trim() || root.model,
    keyEnv: v['sub-api-key-env'] ?? (sameProvider ? root.keyEnv : DEFAULT_KEY_ENV[subProvider]),
    ...(subWindow ? { contextWindowTokens: positiveInt(subWindow, '--sub-context-window') } : {}),
  };
  if (!sameProvider && !v['sub-model']) throw new UsageError('--sub-provider differs from --provider, so --sub-model is needed too');

  const limits: Partial<RunLimits> = {};
  if (v['max-iterations']) limits.maxIterations = positiveInt(v['max-iterations'], '--max-iterations');
  if (v['max-depth'] !== undefined) limits.maxDepth = nonNegativeInt(v['max-depth'], '--max-depth');
  if (v['max-sub-calls'] !== undefined) limits.maxSubCalls = nonNegativeInt(v['max-sub-calls'], '--max-sub-calls');
  if (v['max-tokens']) limits.maxTotalTokens = positiveInt(v['max-tokens'], '--max-tokens');
  if (v['max-cost']) limits.maxCostUsd = positiveNumber(v['max-cost'], '--max-cost');
  if (v.timeout) limits.maxWallTimeMs = Math.round(positiveNumber(v.timeout, '--timeout') * 1000);
  if (v['cell-timeout']) limits.cellTimeoutMs = Math.round(positiveNumber(v['cell-timeout'], '--cell-timeout') * 1000);

  return {
    paths: parsed.positionals,
    question,
    root,
    sub,
    limits,
    ...(v.trajectory ? { trajectory: v.trajectory } : {}),
    json: v.json ?? false,
    quiet: v.quiet ?? false,
    verbose: v.verbose ?? false,
    help,
  };
}

function placeholderModel(): ModelChoice {
  return { provider: 'openai', model: '', keyEnv: DEFAULT_KEY_ENV.openai };
}

function providerOf(value: string, flag: string): ProviderKind {
  if (value === 'openai' || value === 'anthropic') return value;
  throw new UsageError(`${flag} must be openai or anthropic (use openai for Ollama, LM Studio, vLLM and OpenRouter), got "${value}"`);
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
