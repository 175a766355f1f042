// Parses `rlm continue <trajectory> [-q "<follow-up>"] [--from-turn N] [--context PATH]...`: the options
// of `rlm ask`, with the models, limits and input defaulting to what the record names.
import { parseArgs } from 'node:util';
import type { RunConfigRecord } from '../core/trajectory/events';
import type { RunNode } from '../core/trajectory/treeTypes';
import { ASK_OPTIONS, parseCacheChoice } from './askArgs';
import type { AskArgs } from './askArgs';
import { parseLimits, parseModelChoices, positiveInt, positiveNumber, UsageError, usageErrorFrom } from './modelArgs';

const OPTIONS = {
  ...ASK_OPTIONS,
  context: { type: 'string', multiple: true },
  'from-turn': { type: 'string' },
  'allow-divergence': { type: 'boolean' },
} as const;

type Values = ReturnType<typeof parseContinueValues>['values'];

export interface ContinueArgs {
  trajectory: string;
  question?: string;
  contextPaths?: string[];
  fromTurn?: number;
  allowDivergence: boolean;
  help: boolean;
  values: Values;
}

function parseContinueValues(argv: string[]) {
  return parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
}

export function parseContinueArgs(argv: string[]): ContinueArgs {
  let parsed;
  try {
    parsed = parseContinueValues(argv);
  } catch (error) {
    throw usageErrorFrom(error);
  }
  const v = parsed.values;
  if (v.help) return { trajectory: '', allowDivergence: false, help: true, values: v };
  if (parsed.positionals.length !== 1) throw new UsageError('give one recorded run (a .rlm.jsonl file) to continue');
  if (v.quiet && v.verbose) throw new UsageError('--quiet and --verbose cannot be used together');
  const fromTurn = v['from-turn'] !== undefined ? positiveInt(v['from-turn'], '--from-turn') : undefined;
  const question = v.question?.trim();
  if (fromTurn === undefined && !question) throw new UsageError('missing the follow-up question: add -q "<question>" (or fork with --from-turn N)');
  return {
    trajectory: parsed.positionals[0]!,
    ...(question ? { question } : {}),
    ...(v.context?.length ? { contextPaths: v.context } : {}),
    ...(fromTurn !== undefined ? { fromTurn } : {}),
    allowDivergence: v['allow-divergence'] ?? false,
    help: false,
    values: v,
  };
}

/**
 * `rlm ask`'s arguments for the continued run: the record's models when no --model is given (each flag
 * given wins), the record's limits under the ones given, and the record's input unless --context.
 */
export function askArgsFor(args: ContinueArgs, run: RunNode, paths: string[]): AskArgs {
  const v = { ...args.values };
  const config = run.config;
  if (!v.model && config) {
    v.provider ??= config.root.provider;
    v.model = config.root.model;
    if (config.root.baseUrl) v['base-url'] ??= config.root.baseUrl;
    if (!v['sub-model'] && (config.sub.model !== config.root.model || config.sub.provider !== config.root.provider || config.sub.baseUrl !== config.root.baseUrl)) {
      v['sub-provider'] ??= config.sub.provider;
      v['sub-model'] = config.sub.model;
      if (config.sub.baseUrl) v['sub-base-url'] ??= config.sub.baseUrl;
    }
  }
  const { root, sub } = parseModelChoices(v, 'the record names no model: add --model');
  const input: AskArgs['input'] = {};
  if (v['context-limit-mb'] !== undefined) input.maxTotalBytes = Math.round(positiveNumber(v['context-limit-mb'], '--context-limit-mb') * 1024 * 1024);
  if (v['max-file-kb'] !== undefined) input.maxFileBytes = Math.round(positiveNumber(v['max-file-kb'], '--max-file-kb') * 1024);
  return {
    paths,
    question: args.question ?? run.question,
    root,
    sub,
    limits: { ...recordedLimits(config), ...parseLimits(v) },
    ...(v.trajectory ? { trajectory: v.trajectory } : {}),
    input,
    cache: parseCacheChoice(v),
    json: v.json ?? false,
    quiet: v.quiet ?? false,
    verbose: v.verbose ?? false,
    help: false,
    // Never taken from the record: only this command line may accept a weaker sandbox.
    ...(v['allow-weaker-sandbox'] ? { allowWeakerSandbox: true } : {}),
  };
}

/** The limits the record ran under: a replay under other cell limits could diverge for that alone. */
function recordedLimits(config: RunConfigRecord | undefined): AskArgs['limits'] {
  if (!config) return {};
  const { root: _root, sub: _sub, ...limits } = config;
  return Object.fromEntries(Object.entries(limits).filter(([, value]) => typeof value === 'number')) as AskArgs['limits'];
}
