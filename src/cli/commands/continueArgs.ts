// Parses `rlm continue <trajectory> [-q "<follow-up>"] [--from-turn N] [--context PATH]...`: the options
// of `rlm ask`; the models and limits are the user's (never the record's), the input the record's
// paths only when they lie inside the working folder (see core/continuation/recordedInput.ts).
import { parseArgs } from 'node:util';
import { describeRecordedModels } from '../../core/continuation/recordedModels';
import type { RunNode } from '../../core/trajectory/treeTypes';
import { ASK_OPTIONS, parseCacheChoice, parseInputLimits } from './askArgs';
import { parseBatchChoice } from '../support/batchArgs';
import type { AskArgs } from './askArgs';
import { parseLimits, parseModelChoices, positiveInt, UsageError, usageErrorFrom } from '../support/modelArgs';

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
  // Neither is allowed here: a run interrupted while waiting for a provider batch is taken up at that turn (continueCommand).
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
 * `rlm ask`'s arguments for the continued run. The models, endpoints, keys and limits are the ones given
 * here (flags and environment), never the record's: a record is a file anyone can ship, and its
 * `config` could name an attacker's server (which would receive the key) or limits that bill without
 * end. Only the question is taken from the record, and only for a fork asked no other.
 */
export function askArgsFor(args: ContinueArgs, run: RunNode, paths: string[]): AskArgs {
  const v = args.values;
  const recorded = describeRecordedModels(run.config);
  const { root, sub } = parseModelChoices(v, `give the model to continue with, as for rlm ask: --model NAME (and --provider, --base-url for another endpoint); the record's models${recorded ? ` (${recorded})` : ''} are never used`);
  const input = parseInputLimits(v);
  return {
    paths,
    question: args.question ?? run.question,
    root,
    sub,
    limits: parseLimits(v),
    ...(v.trajectory ? { trajectory: v.trajectory } : {}),
    input,
    cache: parseCacheChoice(v),
    ...batchOf(v),
    json: v.json ?? false,
    quiet: v.quiet ?? false,
    verbose: v.verbose ?? false,
    help: false,
    // Never taken from the record: only this command line may accept a weaker sandbox.
    ...(v['allow-weaker-sandbox'] ? { allowWeakerSandbox: true } : {}),
  };
}

function batchOf(v: Values): { batch?: NonNullable<AskArgs['batch']> } {
  const batch = parseBatchChoice(v);
  return batch ? { batch } : {};
}

/** The refusal when neither a question nor a turn is given and the record has no batch to take up. */
export const MISSING_FOLLOW_UP = 'missing the follow-up question: add -q "<question>" (or fork with --from-turn N)';
