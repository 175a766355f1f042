// `rlm continue <trajectory> -q "<follow-up>"` and `--from-turn N` (a fork): re-binds the recorded input,
// replays the recorded cells in a fresh REPL with every sub-call answered from the record, then asks
// the new question there (or lets the root take over at turn N). The new trajectory names its parent.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readTrajectory } from '../core/trajectory/trajectoryReader';
import type { RunNode } from '../core/trajectory/treeTypes';
import { replayPlanOf, ReplayPlanError } from '../core/replay/replayPlan';
import type { ReplayInput } from '../core/loop/replayer';
import { executeAsk, oneLine } from './askCommand';
import type { AskDeps } from './askCommand';
import { askArgsFor, parseContinueArgs } from './continueArgs';
import type { ContinueArgs } from './continueArgs';
import { CONTINUE_HELP } from './cliHelp';
import { UsageError } from './modelArgs';
import { inertOutput } from './inertOutput';

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
  let askArgs;
  try {
    askArgs = askArgsFor(args, run, paths);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return fail(2, error.message);
  }
  const say = (text: string): void => {
    if (!askArgs.quiet) deps.stderr.write(`${text}\n`);
  };
  const cells = replay.plan.turns.reduce((n, t) => n + t.cells.length, 0);
  say(`rlm: replaying ${cells} recorded cell${cells === 1 ? '' : 's'} of ${replay.plan.turns.length} turn${replay.plan.turns.length === 1 ? '' : 's'} (sub-calls answered from the record)`);
  return executeAsk(askArgs, deps, say, now, replay);
}

/** --context, or the paths the record names, found from here: a missing one is said, with the way out. */
function inputPaths(args: ContinueArgs, run: RunNode, cwd: string): string[] {
  if (args.contextPaths) return args.contextPaths;
  const recorded = run.target?.paths ?? [];
  if (recorded.length === 0) throw new UsageError('the record does not name its input: point to it with --context PATH');
  const missing = recorded.filter((p) => !existsSync(resolve(cwd, p)));
  if (missing.length) throw new UsageError(`the recorded input ${missing.join(', ')} is not found from ${cwd}: run from the folder the run was made in, or point to it with --context PATH`);
  return recorded;
}
