// Scaffold figures not covered by the other modules: the memory of the host process (the one running
// the loop, as the extension host does) and of the REPL process during a 50 MB needle run, and the
// scripted reference policy's eval scores, which check the whole scaffold end to end.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './benchTypes';
import type { BenchFigure } from './benchTypes';
import { startScriptedServers } from '../src/eval/scripted/scriptedServers';
import { generateNiah } from '../src/eval/tasks/niahTask';
import { createRlmRun } from '../src/core/loop/rlmRun';
import { createModelClient } from '../src/core/models/createModelClient';
import { createCliReplFactory } from '../src/cli/support/cliRepl';
import { runEval } from '../src/cli/commands/evalCommand';
import type { EvalResultsFile } from '../src/cli/eval/evalTypes';

const GROUP = 'Scaffold';
const repo = resolve(import.meta.dirname, '..');
const distDir = join(repo, 'dist');
const RUNS = 3;
const MB = 1024 * 1024;

export async function run(): Promise<BenchFigure[]> {
  if (!existsSync(join(distDir, 'replProcess.js'))) throw new Error('dist/ is missing: run `npm run build` first (npm run bench does)');
  return [...(await memoryFigures()), ...(await scriptedEvalFigures())];
}

/** RSS in bytes of a process, from /proc (Linux); undefined when it is gone or unreadable. */
function rssOf(pid: number): number | undefined {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Direct children of this process (the REPL processes; the fake servers run in this process). */
function childPids(): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the parenthesised command: state, ppid, ...
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid) out.push(Number(name));
    } catch {
      // The process ended while being read.
    }
  }
  return out;
}

async function memoryFigures(): Promise<BenchFigure[]> {
  if (!existsSync('/proc/self/status')) {
    return [{ group: GROUP, name: 'memory during a 50 MB run', value: 0, unit: 'MB', runs: 0, note: 'not measured: needs Linux /proc' }];
  }
  const servers = await startScriptedServers();
  const repl = createCliReplFactory({ distDir, snapshotCacheDir: join(tmpdir(), 'rlm-repl-test-snapshots') });
  const hostPeaks: number[] = [];
  const replPeaks: number[] = [];
  const times: number[] = [];
  let hostBefore = 0;
  try {
    const root = createModelClient(servers.root);
    const sub = createModelClient(servers.sub);
    hostBefore = process.memoryUsage().rss;
    for (let i = 0; i < RUNS; i++) {
      // 12.5 M tokens at 4 characters each: a 50 MB haystack, a new one each run so that it is bound
      // afresh (the REPL skips rebinding the same context), with the needle at 70% depth.
      const task = generateNiah({ lengthTokens: 12_500_000, seed: 50 + i, index: 0 }, 0.7);
      let host = 0;
      let child = 0;
      const sample = (): void => {
        host = Math.max(host, process.memoryUsage().rss);
        for (const pid of childPids()) child = Math.max(child, rssOf(pid) ?? 0);
      };
      const timer = setInterval(sample, 20);
      const started = performance.now();
      const result = await createRlmRun({ question: task.question, context: task.context, root, sub, repl }).run();
      times.push(performance.now() - started);
      sample();
      clearInterval(timer);
      if (result.answer?.trim() !== task.answer) throw new Error(`the 50 MB scripted run answered ${JSON.stringify(result.answer)}, expected ${task.answer} (${result.status}: ${result.error?.message ?? ''})`);
      hostPeaks.push(host);
      replPeaks.push(child);
    }
  } finally {
    await repl.dispose();
    await servers.close();
  }
  return [
    {
      group: GROUP,
      name: 'host process peak RSS during a 50 MB needle run',
      value: Math.round(median(hostPeaks) / MB),
      unit: 'MB',
      runs: RUNS,
      note: `the Node process running the loop (as the extension host does), holding the 50 MB text; ${Math.round(hostBefore / MB)} MB before generating it`,
    },
    {
      group: GROUP,
      name: 'REPL process peak RSS during a 50 MB needle run',
      value: Math.round(median(replPeaks) / MB),
      unit: 'MB',
      runs: RUNS,
      note: 'the forked REPL child (Pyodide worker with `context` bound), warm across runs',
    },
    {
      group: GROUP,
      name: '50 MB needle run, scripted policy (regex + one sub-call), end to end',
      value: Math.round(median(times)) / 1000,
      unit: 's',
      runs: RUNS,
      note: 'a new 50 MB text each run, bound into the REPL (the first run also starts it); three root turns, a regex and one sub-call on local fake servers',
    },
  ];
}

async function scriptedEvalFigures(): Promise<BenchFigure[]> {
  const out = mkdtempSync(join(tmpdir(), 'rlm-bench-eval-'));
  try {
    let stderr = '';
    const code = await runEval(['--scripted', '--lengths', '32k,1m', '--tasks', '3', '--modes', 'rlm,rlm-no-sub', '--out', out, '--quiet'], {
      stdout: { write: () => true },
      stderr: { write: (t: string) => ((stderr += t), true) },
      cwd: repo,
      distDir,
      snapshotCacheDir: join(tmpdir(), 'rlm-repl-test-snapshots'),
    });
    if (code !== 0) throw new Error(`rlm eval --scripted exited ${code}: ${stderr.trim()}`);
    const data = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as EvalResultsFile;
    const figures: BenchFigure[] = [];
    for (const mode of ['rlm', 'rlm-no-sub'] as const) {
      for (const suite of ['niah', 'oolong', 'pairs', 'code'] as const) {
        const rs = data.results.filter((r) => r.mode === mode && r.suite === suite);
        const pct = (100 * rs.reduce((s, r) => s + r.score, 0)) / rs.length;
        const wrong = rs.filter((r) => r.score < 1).map((r) => `${r.id}: ${r.status}${r.error ? ` ${r.error.slice(0, 60)}` : ''}`);
        figures.push({
          group: 'Scripted eval (scaffold correctness, not a model)',
          name: `${suite}, ${mode}, 32k + 1m`,
          value: Math.round(pct * 10) / 10,
          unit: '%',
          runs: rs.length,
          target: '100%',
          met: pct === 100,
          note: wrong.length ? `below 1: ${wrong.join('; ')}` : `median wall time ${(median(rs.map((r) => r.wallTimeMs)) / 1000).toFixed(2)} s per task`,
        });
      }
    }
    return figures;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
