// `rlm eval`: runs the long-context task suites against a configured root and sub model (or, with
// --scripted, the scripted reference policy on local fake servers) and reports scores and costs.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { startScriptedServers } from '../../eval/scripted/scriptedServers';
import type { ScriptedServers } from '../../eval/scripted/scriptedServers';
import { createModelClient } from '../../core/models/createModelClient';
import type { ModelClient } from '../../core/models/modelTypes';
import { oneLine } from '../support/errorLine';
import { parseCommandArgs } from '../support/commandArgs';
import { modelConfig, UsageError } from '../support/modelArgs';
import { createCliReplFactory } from '../support/cliRepl';
import { parseEvalArgs } from '../eval/evalArgs';
import { BATCH_HELP } from '../support/batchArgs';
import type { EvalArgs } from '../eval/evalArgs';
import { EvalResultsError, summaryText } from '../eval/evalResults';
import { EvalPlanError, runEvaluation } from '../eval/evalRunner';
import { RESULTS_FILE, TABLE_FILE } from '../eval/evalTypes';
import type { ProgressOutput } from '../eval/progressBar';
import { inertOutput } from '../support/inertOutput';

interface EvalIo {
  stdout: { write(text: string): unknown };
  stderr: ProgressOutput;
  env?: Record<string, string | undefined>;
  cwd?: string;
  /** Folder holding replProcess.js, replWorker.js and pyodide/ (default: the running bundle's folder). */
  distDir?: string;
  toolVersion?: string;
  snapshotCacheDir?: string;
  /** Registers a Ctrl-C handler; returns its remover. */
  onInterrupt?: (handler: () => void) => () => void;
  now?: () => number;
}

export const EVAL_HELP = `rlm eval — long-context benchmarks against any model endpoint

Usage: rlm eval [--suite niah,oolong,pairs,code] [--lengths 32k,1m] [--modes rlm,direct,rlm-no-sub]
                [--tasks N] [--seed N] [--out DIR] [--resume] [--scripted] [model options]

  --suite        suites to run (default: all four)
  --lengths      context lengths in tokens, 8k to 10m (default: 32k)
  --modes        rlm (our loop), direct (whole context in one prompt, cut to the window),
                 rlm-no-sub (REPL only, no sub-calls); default: rlm
  --tasks        tasks per suite and length (default 1); --seed varies them (default 1)
  --out          results folder (default .rlm/eval/<time>); --resume continues it (default: the latest)
  --scripted     offline: the scripted reference policy on local fake servers (not a model)
  --code-root    a real source tree for the code suite (default: a tree generated from the seed,
                 the same on every machine)
Model options, as for rlm ask: --provider openai|anthropic, --base-url, --model, --api-key-env NAME,
  --context-window TOKENS, --sub-provider, --sub-base-url, --sub-model, --sub-api-key-env,
  --sub-context-window, --stall-timeout SECONDS, --max-response-mb MB,
  --response-timeout SECONDS; limits: --max-iterations,
  --max-sub-calls, --max-cost, --timeout, --cell-timeout.
${BATCH_HELP}
Keys come from OPENAI_API_KEY / ANTHROPIC_API_KEY (or --api-key-env); a local base URL needs none.
Writes results.json, results.md and trajectories/ in the results folder.`;

const EXIT = { ok: 0, error: 1, usage: 2, cancelled: 130 } as const;

export async function runEval(argv: string[], given: EvalIo): Promise<number> {
  // Task outcomes and errors carry model text: printed inert (see inertOutput).
  const io: EvalIo = { ...given, stdout: inertOutput(given.stdout), stderr: inertOutput(given.stderr) };
  const env = io.env ?? process.env;
  const cwd = io.cwd ?? process.cwd();
  const now = io.now ?? Date.now;
  const args = parseCommandArgs('eval', () => parseEvalArgs(argv), io.stderr);
  if (!args) return EXIT.usage;
  if (args.help) {
    io.stdout.write(`${EVAL_HELP}\n`);
    return EXIT.ok;
  }
  let outDir: string;
  try {
    outDir = resolveOutDir(args, cwd, now());
  } catch (error) {
    io.stderr.write(`rlm eval: ${oneLine(error)}\n`);
    return EXIT.usage;
  }

  let scripted: ScriptedServers | undefined;
  const controller = new AbortController();
  const removeInterrupt = io.onInterrupt?.(() => controller.abort());
  const repl = createCliReplFactory({ distDir: io.distDir ?? __dirname, ...(io.snapshotCacheDir ? { snapshotCacheDir: io.snapshotCacheDir } : {}) });
  try {
    let root: ModelClient;
    let sub: ModelClient;
    let secrets: string[] = [];
    if (args.scripted) {
      scripted = await startScriptedServers();
      root = createModelClient(scripted.root);
      sub = createModelClient(scripted.sub);
      io.stderr.write('rlm eval: --scripted: the scripted reference policy plays the models (results measure the scaffold, not a model)\n');
    } else {
      const rootConfig = modelConfig(args.root!, env, '--api-key-env');
      const subConfig = modelConfig(args.sub!, env, '--sub-api-key-env');
      root = createModelClient(rootConfig);
      sub = createModelClient(subConfig);
      secrets = [rootConfig.apiKey, subConfig.apiKey].filter((k): k is string => !!k);
    }
    const data = await runEvaluation({
      plan: { suites: args.suites, lengths: args.lengths, modes: args.modes, tasksPerLength: args.tasksPerLength, seed: args.seed, scripted: args.scripted },
      outDir,
      resume: args.resume,
      ...(args.codeRoot ? { codeRoot: resolve(cwd, args.codeRoot) } : {}),
      root,
      sub,
      repl,
      limits: args.limits,
      ...(args.batch ? { batch: args.batch } : {}),
      toolVersion: io.toolVersion ?? '0.0.0',
      secrets,
      signal: controller.signal,
      progress: io.stderr,
      quiet: args.quiet,
      now,
    });
    io.stdout.write(`${summaryText(data)}\nResults: ${join(outDir, RESULTS_FILE)} and ${join(outDir, TABLE_FILE)}\n`);
    if (!data.complete) {
      io.stderr.write(`rlm eval: stopped before the end; continue with: rlm eval --resume --out ${outDir} (and the same options)\n`);
      return EXIT.cancelled;
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError || error instanceof EvalPlanError || error instanceof EvalResultsError) {
      io.stderr.write(`rlm eval: ${error.message}\n`);
      return error instanceof UsageError ? EXIT.usage : EXIT.error;
    }
    io.stderr.write(`rlm eval: ${oneLine(error)}\n`);
    return EXIT.error;
  } finally {
    removeInterrupt?.();
    await repl.dispose();
    await scripted?.close();
  }
}

function resolveOutDir(args: EvalArgs, cwd: string, nowMs: number): string {
  if (args.out) return resolve(cwd, args.out);
  const parent = join(cwd, '.rlm', 'eval');
  if (args.resume) {
    const dirs = existsSync(parent) ? readdirSync(parent).filter((d) => statSync(join(parent, d)).isDirectory() && existsSync(join(parent, d, RESULTS_FILE))) : [];
    const latest = dirs.sort().pop();
    if (!latest) throw new UsageError(`--resume found no earlier evaluation under ${parent}; give --out DIR`);
    return join(parent, latest);
  }
  return join(parent, new Date(nowMs).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z'));
}
