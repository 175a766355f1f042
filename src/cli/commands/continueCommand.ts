// `rlm continue <trajectory> -q "<follow-up>"` and `--from-turn N` (a fork): re-binds the recorded input
// (only inside the working folder), replays the recorded cells in a fresh sandboxed REPL with every
// sub-call answered from the record, then asks the new question there (or lets the root take over at
// turn N) with the user's models and limits. The record is hostile: see core/continuation/recordedInput.ts
// and recordedModels.ts for what of it is used. The new trajectory names its parent.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readTrajectory } from '../../core/trajectory/trajectoryReader';
import type { RunNode } from '../../core/trajectory/treeTypes';
import { replayPlanOf, ReplayPlanError } from '../../core/continuation/replayPlan';
import { rebindRecordedInput, RecordedInputMissingError, RecordedInputOutsideError, RecordedInputUnnamedError } from '../../core/continuation/recordedInput';
import { describeCurrentModels, describeRecordedModels, replayNoticeLine } from '../../core/continuation/recordedModels';
import type { ReplayInput } from '../../core/continuation/replayPlan';
import { executeAsk } from './askCommand';
import { oneLine } from '../support/errorLine';
import type { AskDeps } from './askCommand';
import { askArgsFor, MISSING_FOLLOW_UP, parseContinueArgs } from './continueArgs';
import { interruptedBatchTurn, recordedBatchesOf } from '../../core/loop/batchOptions';
import type { ContinueArgs } from './continueArgs';
import type { AskArgs } from './askArgs';
import { CONTINUE_HELP } from '../support/cliHelp';
import { UsageError } from '../support/modelArgs';
import { inertOutput } from '../support/inertOutput';

export async function runContinue(argv: string[], given: AskDeps): Promise<number> {
  const deps: AskDeps = { ...given, stdout: inertOutput(given.stdout), stderr: inertOutput(given.stderr) };
  const now = deps.now ?? Date.now;
  const fail = (code: number, message: string): number => {
    deps.stderr.write(`rlm continue: ${message}\n`);
    if (code === 2) deps.stderr.write('Run "rlm continue --help" for the options.\n');
    return code;
  };
  let args: ContinueArgs;
  try {
    args = parseContinueArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return fail(2, error.message);
  }
  if (args.help) {
    deps.stdout.write(`${CONTINUE_HELP}\n`);
    return 0;
  }
  const recordPath = resolve(deps.cwd, args.trajectory);
  if (!existsSync(recordPath)) return fail(1, `no such trajectory: ${recordPath}`);
  let run: RunNode | undefined;
  try {
    run = (await readTrajectory(recordPath)).tree;
  } catch (error) {
    return fail(1, `cannot read ${recordPath}: ${oneLine(error)}`);
  }
  if (!run) return fail(1, `${recordPath} holds no run to continue`);
  // A run interrupted while it waited for a provider batch is taken up at that turn: the root writes the
  // cell again and its batch is read from the provider, not sent again.
  const waitingTurn = interruptedBatchTurn(run);
  if (args.question === undefined && args.fromTurn === undefined) {
    if (waitingTurn === undefined) return fail(2, MISSING_FOLLOW_UP);
    args = { ...args, fromTurn: waitingTurn };
  }
  let replay: ReplayInput;
  let paths: string[];
  try {
    const plan = replayPlanOf(run, args.fromTurn);
    paths = inputPaths(args, run, deps.cwd);
    replay = {
      plan,
      from: {
        mode: args.fromTurn !== undefined ? 'fork' : 'continue',
        trajectory: args.trajectory,
        runId: run.runId,
        question: run.question,
        ...(args.fromTurn !== undefined ? { fromTurn: args.fromTurn } : {}),
        allowDivergence: args.allowDivergence,
      },
    };
  } catch (error) {
    if (error instanceof ReplayPlanError || error instanceof UsageError) return fail(2, error.message);
    throw error;
  }
  let askArgs: AskArgs;
  try {
    askArgs = askArgsFor(args, run, paths);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return fail(2, error.message);
  }
  const say = (text: string): void => {
    if (!askArgs.quiet) deps.stderr.write(`${text}\n`);
  };
  // The record's provider batches are offered to the run, used only on the endpoint configured now.
  const recorded = recordedBatchesOf(run);
  if (recorded.length > 0) {
    askArgs = { ...askArgs, batch: { ...(askArgs.batch ?? { mode: 'off' }), recorded } };
    if (waitingTurn !== undefined) say(`rlm: the recorded run was waiting for a provider batch at turn ${waitingTurn}; its results are read from the provider (on the endpoint configured now), not sent again.`);
  }
  const cells = replay.plan.turns.reduce((n, t) => n + t.cells.length, 0);
  say(`rlm: ${replayNoticeLine(cells, replay.plan.turns.length, describeCurrentModels(askArgs.root, askArgs.sub), describeRecordedModels(run.config))}`);
  return executeAsk(askArgs, deps, say, now, replay);
}

/**
 * --context (the user's own choice, taken as given), or the paths the record names, re-bound only when
 * each one's real path lies inside the working folder; otherwise a refusal naming the path and the way
 * out (exit 2), before anything is read or sent.
 */
function inputPaths(args: ContinueArgs, run: RunNode, cwd: string): string[] {
  if (args.contextPaths) return args.contextPaths;
  if (run.target?.kind === 'text') throw new UsageError('the recorded input was not a file or folder on disk, so it cannot be read again: give it with --context PATH');
  try {
    return rebindRecordedInput(run.target?.paths, [cwd]).entries.map((e) => e.path);
  } catch (error) {
    if (error instanceof RecordedInputOutsideError) throw new UsageError(`${error.message}: give the input yourself with --context PATH`);
    if (error instanceof RecordedInputMissingError) throw new UsageError(`${error.message}: run from the folder the run was made in, or give the input with --context PATH`);
    if (error instanceof RecordedInputUnnamedError) throw new UsageError(`${error.message}: give it with --context PATH`);
    throw error;
  }
}
