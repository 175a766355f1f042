// `rlm ask <path>... -q "<question>"`: reads the paths into `context`, runs the RLM loop, records the
// trajectory, and prints the answer (or --json). Ctrl-C cancels through the run's AbortSignal.
import { createRunsFolder } from '../../core/trajectory/runsFolder';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ContextReadError, SpecialFileError } from '../../core/context/contextErrors';
import { planPaths } from '../../core/context/contextPlan';
import type { ContextPlan, ContextSource, PendingContext, PlanProgress, SkipReason, TargetDescription } from '../../core/context/contextTypes';
import { DEFAULT_CONTEXT_LIMIT_BYTES, partialPreview } from '../../core/repl/contextEncoding';
import type { FinalRunAnswer, RunResult } from '../../core/loop/loopTypes';
import { createRlmRun } from '../../core/loop/rlmRun';
import { createModelClient } from '../../core/models/createModelClient';
import type { ModelClient } from '../../core/models/modelTypes';
import type { TrajectoryWriter } from '../../core/trajectory/trajectoryWriter';
import { parseAskArgs } from './askArgs';
import type { AskArgs } from './askArgs';
import { parseCommandArgs } from '../support/commandArgs';
import { modelConfigs } from '../support/modelArgs';
import { ASK_HELP } from '../support/cliHelp';
import { openRunTrajectory } from '../support/runTrajectory';
import { createCliReplFactory } from '../support/cliRepl';
import { ripgrepOnPath } from '../support/ripgrepOnPath';
import type { ReplPool } from '../../core/repl/replPool';
import { ProgressLine } from '../support/progressLine';
import type { ProgressStream } from '../support/progressLine';
import { describeEventForLog, sandboxWarningLine } from '../support/eventNotes';
import { inertOutput } from '../support/inertOutput';
import { inertJson } from '../../shared/text/untrustedText';
import { oneLine } from '../support/errorLine';
import type { ReplayInput } from '../../core/continuation/replayPlan';
import { cliCacheUse } from '../support/subCallCacheLocation';

export interface AskDeps {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: { write(text: string): unknown };
  stderr: ProgressStream;
  /** For the default cache folder; default the process's. */
  platform?: NodeJS.Platform;
  home?: string;
  /** Folder holding replProcess.js, replWorker.js and pyodide/. */
  distDir: string;
  toolVersion: string;
  snapshotCacheDir?: string;
  /** Registers a Ctrl-C handler; returns its remover. */
  onInterrupt?: (handler: () => void) => () => void;
  /** Ends the process at once (second Ctrl-C, or a cancel that does not finish in time). */
  exitNow?: (code: number) => void;
  now?: () => number;
  /** Milliseconds since the command started; default performance.now() (since the process started). */
  uptimeMs?: () => number;
}

const EXIT = { ok: 0, error: 1, usage: 2, limit: 3, cancelled: 130 } as const;
/**
 * The root's first request leaves by this time after the command started, even while a large folder
 * is still being walked: it then carries the figures found so far, marked partial, and the root gets
 * the whole figures with its first observation (prompts.boundNote). A walk that ends sooner is waited
 * for. The request is what the user waits on; the walk goes on beside it, so a folder of 20,000 files
 * no longer holds the request back for its whole walk (0.7-1.0 s at load 2.5). At least
 * FIRST_REQUEST_MIN_WALK_MS of walking is always allowed, so a small folder is described whole
 * however slowly the process started.
 */
const FIRST_REQUEST_BY_MS = 250;
const FIRST_REQUEST_MIN_WALK_MS = 60;
/** The walk's time slice once the first request is going out beside it (see PlanProgress.sliceMs). */
const WALK_SLICE_MS_WHILE_SENDING = 1;
/** The issue allows 2 s from Ctrl-C to exit; the loop normally needs well under one. */
const CANCEL_GRACE_MS = 1500;

export async function runAsk(argv: string[], given: AskDeps): Promise<number> {
  // Answers, errors and notes carry model and file text: printed inert (see inertOutput).
  const deps: AskDeps = { ...given, stdout: inertOutput(given.stdout), stderr: inertOutput(given.stderr) };
  const now = deps.now ?? Date.now;
  const args = parseCommandArgs('ask', () => parseAskArgs(argv), deps.stderr);
  if (!args) return EXIT.usage;
  if (args.help) {
    deps.stdout.write(`${ASK_HELP}\n`);
    return EXIT.ok;
  }
  const say = (text: string): void => {
    if (!args.quiet) deps.stderr.write(`${text}\n`);
  };

  return executeAsk(args, deps, say, now);
}

/** A run of `rlm ask`'s flow with parsed arguments; `replay` makes it a continued or forked run. */
export async function executeAsk(args: AskArgs, deps: AskDeps, say: (text: string) => void, now: () => number, replay?: ReplayInput): Promise<number> {
  // The REPL starts now, in parallel with everything below: by the time the root's first reply comes
  // back it is usually ready. It is stopped on every way out.
  const ripgrep = ripgrepOnPath(deps.env);
  const repl = createCliReplFactory({
    distDir: deps.distDir,
    refillAfterFirst: true,
    ...(args.allowWeakerSandbox ? { allowWeakerSandbox: true } : {}),
    ...(args.input.maxTotalBytes !== undefined ? { contextLimitBytes: args.input.maxTotalBytes } : {}),
    ...(args.input.replMemoryMb !== undefined ? { memoryCapMb: args.input.replMemoryMb } : {}),
    ...(ripgrep ? { ripgrepPath: ripgrep } : {}),
    ...(deps.snapshotCacheDir ? { snapshotCacheDir: deps.snapshotCacheDir } : {}),
  });
  try {
    return await askWith(args, deps, repl, say, now, replay);
  } finally {
    await repl.dispose();
  }
}

async function askWith(args: AskArgs, deps: AskDeps, repl: ReplPool, say: (text: string) => void, now: () => number, replay: ReplayInput | undefined): Promise<number> {
  let root: ModelClient;
  let sub: ModelClient;
  let secrets: string[];
  try {
    const configs = modelConfigs(args, deps.env);
    root = createModelClient(configs.root);
    sub = configs.sub === configs.root ? root : createModelClient(configs.sub);
    secrets = configs.secrets;
  } catch (error) {
    deps.stderr.write(`rlm ask: ${oneLine(error)}\n`);
    return EXIT.error;
  }

  // Only a walk and stat here: the files are read while they are bound, after the first request left.
  // A walk that outlasts FIRST_REQUEST_BY_MS goes on while the first request leaves (PendingContext).
  const walkProgress: PlanProgress = { fileCount: 0, totalBytes: 0, firstFiles: [] };
  const walking = planPaths(args.paths, { cwd: deps.cwd, ...args.input, progress: walkProgress });
  const walked = walking.then(
    (plan) => ({ plan }),
    (error: unknown) => ({ error }),
  );
  let walkEnded: { plan: ContextPlan } | { error: unknown } | undefined;
  void walked.then((ended) => (walkEnded = ended));
  const uptime = deps.uptimeMs ?? (() => performance.now());
  let timer: NodeJS.Timeout | undefined;
  const due = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(FIRST_REQUEST_MIN_WALK_MS, FIRST_REQUEST_BY_MS - uptime()))));
  const settled = await Promise.race([walked, due.then(() => undefined)]);
  let context: ContextSource | PendingContext;
  let target: TargetDescription | undefined;
  if (settled) {
    clearTimeout(timer);
    if ('error' in settled) return walkFailed(settled.error, deps);
    describePlan(settled.plan, args, deps, say);
    context = { kind: 'plan', plan: settled.plan };
    target = settled.plan.target;
  } else {
    walkProgress.sliceMs = WALK_SLICE_MS_WHILE_SENDING;
    context = {
      kind: 'pending',
      ready: walking.then((plan) => {
        describePlan(plan, args, deps, say);
        return { context: { kind: 'plan', plan }, target: plan.target };
      }),
      previewDue: Promise.resolve(),
      soFar: () => partialPreview(walkProgress, args.input.maxTotalBytes ?? DEFAULT_CONTEXT_LIMIT_BYTES),
    };
  }

  const trajectoryPath = resolve(deps.cwd, args.trajectory ?? defaultTrajectoryPath(now()));
  try {
    createRunsFolder(dirname(trajectoryPath));
  } catch (error) {
    deps.stderr.write(`rlm ask: cannot create the folder for the trajectory ${trajectoryPath}: ${oneLine(error)}\n`);
    return EXIT.error;
  }

  const controller = new AbortController();
  const progress = !args.quiet && (deps.stderr.isTTY || args.verbose) ? new ProgressLine(deps.stderr, now(), now) : undefined;
  let writer: TrajectoryWriter | undefined;
  let writeError: unknown;
  let interrupts = 0;
  const removeInterrupt = deps.onInterrupt?.(() => {
    interrupts += 1;
    if (interrupts === 1) {
      progress?.note('rlm: cancelling… (press Ctrl-C again to exit at once)');
      controller.abort();
      setTimeout(() => {
        writer?.close({ status: 'cancelled' });
        deps.exitNow?.(EXIT.cancelled);
      }, CANCEL_GRACE_MS).unref();
    } else {
      writer?.close({ status: 'cancelled' });
      deps.exitNow?.(EXIT.cancelled);
    }
  });

  let result: RunResult;
  // The answer goes to stdout the moment it is final; the run's bookkeeping (citations, coverage)
  // and the trajectory follow, and the exit code waits for them.
  let printed = false;
  const onAnswer = (answer: FinalRunAnswer): void => {
    if (args.json || !succeeded(answer.status)) return;
    deps.stdout.write(answer.text.endsWith('\n') ? answer.text : `${answer.text}\n`);
    printed = true;
  };
  try {
    const subCallCache = cliCacheUse({ ...args.cache, ...(args.cache.dir ? { dir: resolve(deps.cwd, args.cache.dir) } : {}) }, deps.cwd, { env: deps.env, platform: deps.platform ?? process.platform, home: deps.home ?? homedir() });
    const run = createRlmRun({
      question: args.question,
      context,
      ...(target ? { target } : {}),
      root,
      sub,
      limits: args.limits,
      repl,
      signal: controller.signal,
      ...(subCallCache ? { subCallCache } : {}),
      ...(args.batch ? { batch: args.batch } : {}),
      ...(replay ? { replay } : {}),
      onAnswer,
    });
    for await (const record of run) {
      if (!writer && !writeError && record.type === 'run.started') {
        try {
          writer = openRunTrajectory(trajectoryPath, record, deps.toolVersion, secrets);
        } catch (error) {
          writeError = error;
          controller.abort();
        }
      }
      try {
        writer?.write(record);
      } catch (error) {
        writeError ??= error;
        controller.abort();
      }
      progress?.update(record);
      // A sandbox layer that is off is said plainly, even with --quiet: the user decides whether to trust the run.
      const sandboxWarning = record.type === 'run.started' && record.depth === 0 ? sandboxWarningLine(record.protections) : undefined;
      if (sandboxWarning) {
        if (progress) progress.note(sandboxWarning);
        else deps.stderr.write(`${sandboxWarning}\n`);
      }
      // Files found binary or unreadable while they were read: said like the ones the walk skipped.
      if (args.verbose && record.type === 'run.started' && record.depth === 0) for (const skipped of record.context.leftOut ?? []) say(skippedLine(skipped));
      // A large batch's estimate is said before the batch is sent, wherever progress is shown.
      // A provider batch is said as it is sent, as it moves and as it ends; a cancelled one (what was
      // billed) and one that failed as a whole (the provider's reason, once) even without progress.
      const batchNote = record.type === 'batch.estimated' || record.type === 'batch.submitted' || record.type === 'batch.progress' || record.type === 'batch.ended';
      const batchToSay = record.type === 'batch.ended' && (record.cancelled === true || record.failure !== undefined);
      const note = args.verbose || (progress && batchNote) || (batchToSay && !args.quiet) ? describeEventForLog(record) : undefined;
      if (note && progress) progress.note(note);
      else if (note) say(note);
    }
    result = await run.run();
    // A walk that failed after the first request left ended the run: said as before, not as a run error.
    if (walkEnded && 'error' in walkEnded) {
      progress?.stop();
      writer?.close({ status: 'error' });
      return walkFailed(walkEnded.error, deps);
    }
  } catch (error) {
    writer?.abort(oneLine(error));
    progress?.stop();
    deps.stderr.write(`rlm ask: ${oneLine(error)}\n`);
    return EXIT.error;
  } finally {
    removeInterrupt?.();
  }
  progress?.stop();
  writer?.close({ status: result.status === 'error' ? 'error' : 'cancelled' });
  if (writeError) {
    deps.stderr.write(`rlm ask: the run was stopped because its trajectory could not be written: ${oneLine(writeError)}\n`);
    return EXIT.error;
  }
  return report(args, result, trajectoryPath, deps, say, replay, printed);
}

function report(args: AskArgs, result: RunResult, trajectory: string, deps: AskDeps, say: (text: string) => void, replay: ReplayInput | undefined, printed: boolean): number {
  const code = succeeded(result.status) ? EXIT.ok : result.status === 'limit' ? EXIT.limit : result.status === 'cancelled' ? EXIT.cancelled : EXIT.error;
  if (args.json) {
    const { totals } = result;
    const json = {
      answer: result.answer ?? null,
      status: result.status,
      forced: result.forced,
      ...(result.error ? { error: result.error } : {}),
      ...(result.partial !== undefined ? { partial: result.partial } : {}),
      ...(result.references ? { references: result.references, unresolvedReferences: result.unresolvedReferences ?? [] } : {}),
      usage: {
        inputTokens: totals.inputTokens,
        outputTokens: totals.outputTokens,
        costUsd: totals.costUsd,
        cacheReadTokens: totals.cacheReadTokens ?? 0,
        cacheWriteTokens: totals.cacheWriteTokens ?? 0,
        savedUsd: totals.savedUsd ?? 0,
        cachedSubCalls: totals.cachedSubCalls ?? 0,
      },
      subCalls: totals.subCalls,
      iterations: totals.iterations,
      trajectory,
      ...(replay ? { parent: { trajectory: replay.from.trajectory ?? null, runId: replay.from.runId, mode: replay.from.mode, ...(replay.from.fromTurn ? { fromTurn: replay.from.fromTurn } : {}) } } : {}),
    };
    deps.stdout.write(`${inertJson(json, 2)}\n`);
  } else if (code === EXIT.ok && result.answer !== undefined && !printed) {
    deps.stdout.write(result.answer.endsWith('\n') ? result.answer : `${result.answer}\n`);
  }
  const unresolved = result.unresolvedReferences ?? [];
  if (unresolved.length && !args.json) say(`rlm: ${unresolved.length} citation${unresolved.length === 1 ? '' : 's'} in the answer not found in the input: ${unresolved.slice(0, 5).map((u) => `${u.citation} (${u.detail})`).join('; ')}${unresolved.length > 5 ? '; …' : ''}`);
  if (result.forced) say(`rlm: ${result.error?.message ?? 'a limit was reached'}; the answer above was given in the last turn it allowed (trajectory: ${trajectory})`);
  if (code !== EXIT.ok) {
    const why = result.error?.message ?? result.status;
    deps.stderr.write(`rlm ask: ${result.status}: ${why}; no answer — trajectory: ${trajectory}\n`);
    if (result.partial !== undefined && !args.json) {
      deps.stderr.write(`rlm ask: partial findings (the run's last output, not an answer):\n${result.partial}\n`);
    }
  } else if (args.verbose) say(`rlm: trajectory: ${trajectory}`);
  return code;
}

/** A run that ends with exit code 0, its answer on stdout. */
function succeeded(status: RunResult['status']): boolean {
  return status === 'completed' || status === 'forced';
}

function walkFailed(error: unknown, deps: AskDeps): number {
  if (!(error instanceof ContextReadError)) throw error;
  deps.stderr.write(`rlm ask: ${error.message}\n`);
  // A device, FIFO or socket is a wrong argument, like a bad flag: refused before anything is read.
  return error instanceof SpecialFileError ? EXIT.usage : EXIT.error;
}

/** What the walk found, said once it ended: the lazy binding, unusual skips, and with --verbose every skip. */
function describePlan(plan: ContextPlan, args: AskArgs, deps: AskDeps, say: (text: string) => void): void {
  if (plan.lazy && plan.format?.pdf) {
    say(`rlm: a PDF of ${plan.format.pdf.pages} pages: pages are extracted when used, and search() runs on the host`);
  } else if (plan.lazy) {
    const rg = ripgrepOnPath(deps.env);
    say(`rlm: ${plan.target.fileCount} files, ${(plan.totalBytes / 1e9).toFixed(2)} GB: over the eager limit of ${Math.round(plan.maxTotalBytes / 2 ** 20)} MB, so files are read when used and search() runs on the host (${rg ? `ripgrep: ${rg}` : 'a streamed scan; install ripgrep for speed'})`);
  }
  const unusual = unusualSkips(plan.target.skipped);
  if (unusual && !args.verbose) say(`rlm: skipped ${unusual} (--verbose lists them)`);
  if (args.verbose) {
    say(`rlm: ${plan.lazy ? 'listing' : 'reading'} ${plan.target.fileCount} file(s), ${plan.target.totalBytes} bytes`);
    for (const skipped of plan.target.skipped) say(skippedLine(skipped));
  }
}

const UNUSUAL: Partial<Record<SkipReason, [string, string]>> = {
  special: ['device, FIFO or socket', 'devices, FIFOs or sockets'],
  'link-outside': ['symlink leading out of the folder', 'symlinks leading out of the folder'],
  'link-loop': ['symlink loop', 'symlink loops'],
};

/** Skips a user would not guess (binaries and ignored files are expected), said even without --verbose. */
function unusualSkips(skipped: AskInputSkipped): string | undefined {
  const parts: string[] = [];
  for (const [reason, [one, many]] of Object.entries(UNUSUAL) as Array<[SkipReason, [string, string]]>) {
    const n = skipped.filter((s) => s.reason === reason).length;
    if (n) parts.push(`${n} ${n === 1 ? one : many}`);
  }
  return parts.length ? parts.join(', ') : undefined;
}

type AskInputSkipped = TargetDescription['skipped'];

function skippedLine(skipped: AskInputSkipped[number]): string {
  return `rlm: skipped ${skipped.path} (${skipped.reason}${skipped.detail ? `: ${skipped.detail}` : ''}${skipped.bytes !== undefined ? `, ${skipped.bytes} bytes` : ''})`;
}

export function defaultTrajectoryPath(nowMs: number): string {
  const stamp = new Date(nowMs).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const id = Math.random().toString(36).slice(2, 8);
  return join('.rlm', 'runs', `${stamp}-${id}.rlm.jsonl`);
}
