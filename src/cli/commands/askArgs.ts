// Parses `rlm ask` arguments into plain options; the model and limit flags are shared with `rlm eval`.
import { parseArgs } from 'node:util';
import type { RunLimits } from '../../core/loop/loopTypes';
import { DEFAULT_KEY_ENV, MODEL_OPTIONS, parseLimits, parseModelChoices, positiveNumber, UsageError, usageErrorFrom } from '../support/modelArgs';
import type { ModelChoice } from '../support/modelArgs';
import type { SubCallBatchOptions } from '../../core/loop/batchOptions';
import { BATCH_OPTIONS, parseBatchChoice } from '../support/batchArgs';
import { DEFAULT_CACHE_MAX_MB } from '../support/subCallCacheLocation';
import type { CacheChoice } from '../support/subCallCacheLocation';

export interface AskArgs {
  paths: string[];
  question: string;
  root: ModelChoice;
  sub: ModelChoice;
  limits: Partial<RunLimits>;
  trajectory?: string;
  /** Input limits (--context-limit-mb, --max-file-kb, --repl-memory-mb); absent: the defaults of planPaths and the REPL. */
  input: { maxTotalBytes?: number; maxFileBytes?: number; maxListedBytes?: number; replMemoryMb?: number };
  /** How this run uses the sub-call cache (--no-cache, --refresh-cache, --cache-dir, --cache-max-mb). */
  cache: CacheChoice;
  /** --batch / --batch-min: llm_query_batched as provider batches; absent: off. */
  batch?: SubCallBatchOptions;
  json: boolean;
  quiet: boolean;
  verbose: boolean;
  help: boolean;
  /** --allow-weaker-sandbox: run even where fewer than two sandbox layers hold (recorded in the run). */
  allowWeakerSandbox?: boolean;
}

export const ASK_OPTIONS = {
  question: { type: 'string', short: 'q' },
  ...MODEL_OPTIONS,
  'max-iterations': { type: 'string' },
  'max-depth': { type: 'string' },
  'max-sub-calls': { type: 'string' },
  'max-tokens': { type: 'string' },
  'max-cost': { type: 'string' },
  timeout: { type: 'string' },
  'cell-timeout': { type: 'string' },
  'context-limit-mb': { type: 'string' },
  'repl-memory-mb': { type: 'string' },
  'max-file-kb': { type: 'string' },
  'workspace-limit-gb': { type: 'string' },
  trajectory: { type: 'string' },
  'no-cache': { type: 'boolean' },
  'refresh-cache': { type: 'boolean' },
  'cache-dir': { type: 'string' },
  'cache-max-mb': { type: 'string' },
  ...BATCH_OPTIONS,
  'allow-weaker-sandbox': { type: 'boolean' },
  json: { type: 'boolean' },
  quiet: { type: 'boolean' },
  verbose: { type: 'boolean', short: 'v' },
  help: { type: 'boolean', short: 'h' },
} as const;

export function parseAskArgs(argv: string[]): AskArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: ASK_OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageErrorFrom(error);
  }
  const v = parsed.values;
  const help = v.help ?? false;
  if (help) return { paths: [], question: '', root: placeholderModel(), sub: placeholderModel(), limits: {}, input: {}, cache: { mode: 'off', maxMb: DEFAULT_CACHE_MAX_MB }, json: false, quiet: false, verbose: false, help };
  if (parsed.positionals.length === 0) throw new UsageError('give at least one file or folder to ask about');
  const question = v.question?.trim() ?? '';
  if (!question) throw new UsageError('missing the question: add -q "<question>"');
  if (v.quiet && v.verbose) throw new UsageError('--quiet and --verbose cannot be used together');

  const { root, sub } = parseModelChoices(v, 'missing --model, e.g. --model gpt-4.1-mini or --provider anthropic --model claude-sonnet-4-5');
  const limits = parseLimits(v);
  const input = parseInputLimits(v);

  const cache = parseCacheChoice(v);
  const batch = parseBatchChoice(v);

  return {
    paths: parsed.positionals,
    question,
    root,
    sub,
    limits,
    ...(v.trajectory ? { trajectory: v.trajectory } : {}),
    input,
    cache,
    ...(batch ? { batch } : {}),
    json: v.json ?? false,
    quiet: v.quiet ?? false,
    verbose: v.verbose ?? false,
    help,
    ...(v['allow-weaker-sandbox'] ? { allowWeakerSandbox: true } : {}),
  };
}

/** --no-cache, --refresh-cache, --cache-dir and --cache-max-mb (shared with `rlm continue`). */
export function parseCacheChoice(v: { 'no-cache'?: boolean; 'refresh-cache'?: boolean; 'cache-dir'?: string; 'cache-max-mb'?: string }): CacheChoice {
  if (v['no-cache'] && v['refresh-cache']) throw new UsageError('--no-cache and --refresh-cache cannot be used together');
  if (v['cache-dir'] !== undefined && !v['cache-dir'].trim()) throw new UsageError('--cache-dir needs a folder');
  return {
    mode: v['no-cache'] ? 'off' : v['refresh-cache'] ? 'refresh' : 'use',
    ...(v['cache-dir'] ? { dir: v['cache-dir'] } : {}),
    maxMb: v['cache-max-mb'] !== undefined ? positiveNumber(v['cache-max-mb'], '--cache-max-mb') : DEFAULT_CACHE_MAX_MB,
  };
}

function placeholderModel(): ModelChoice {
  return { provider: 'openai', model: '', keyEnv: DEFAULT_KEY_ENV.openai };
}

/** --context-limit-mb, --workspace-limit-gb, --repl-memory-mb and --max-file-kb (shared with `rlm continue` and `rlm mcp`). */
export function parseInputLimits(v: { 'context-limit-mb'?: string; 'workspace-limit-gb'?: string; 'repl-memory-mb'?: string; 'max-file-kb'?: string }): AskArgs['input'] {
  const input: AskArgs['input'] = {};
  if (v['context-limit-mb'] !== undefined) input.maxTotalBytes = Math.round(positiveNumber(v['context-limit-mb'], '--context-limit-mb') * 1024 * 1024);
  if (v['workspace-limit-gb'] !== undefined) input.maxListedBytes = Math.round(positiveNumber(v['workspace-limit-gb'], '--workspace-limit-gb') * 1024 * 1024 * 1024);
  if (v['repl-memory-mb'] !== undefined) input.replMemoryMb = replMemoryMb(v['repl-memory-mb']);
  if (v['max-file-kb'] !== undefined) input.maxFileBytes = Math.round(positiveNumber(v['max-file-kb'], '--max-file-kb') * 1024);
  return input;
}

/** --repl-memory-mb: the REPL's memory cap. Below 64 MB Pyodide cannot start; wasm32 addresses at most 4 GB. */
function replMemoryMb(value: string): number {
  const mb = positiveNumber(value, '--repl-memory-mb');
  if (mb < 64 || mb > 4096) throw new UsageError(`--repl-memory-mb must be between 64 and 4096, got ${value}`);
  return Math.round(mb);
}
