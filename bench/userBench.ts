// What a user of `rlm ask` waits for, timed from outside as the user sees it: each figure is a spawned
// production `rlm` (dist/rlm.js) against a fake OpenAI server that answers at once, from the command's start
// (or from the final root reply) to the event, on this machine, as min / median / max over the runs,
// with the load average beside it. The build timed is the production build of this checkout, made in a scratch
// folder (what the npm package ships). Set RLM_BENCH_BASELINE_DIST to another build's dist/ folder
// to run the same figures for it too, interleaved run by run (A B A B …), so a busy machine slows both
// alike; RLM_BENCH_DIST measures another build instead (a copy, so a rebuild during the bench changes
// nothing); RLM_BENCH_RUNS sets the runs per figure (default 5); RLM_BENCH_ONLY a subset.
//   - `rlm --version`: the start every command pays, with and without V8's code cache
//   - where the two-turn run's CPU goes: the host, and each thread of the REPL process (/proc, sampled)
//   - the first root request after the command starts: 1 KB file, 200 MB file, 20,000-file folder
//   - the answer on stdout after the final root reply: 200 MB file, 20,000-file folder
//   - child runs: four sequential rlm_query calls with an instant model, each child's wall time and
//     the time from rlm_query to the child's first cell (from the trajectory the command wrote)
//   - the CPU of a whole two-turn run on a 1 KB file, all processes (user + system, /usr/bin/time), and
//     beside it Pyodide's own floor: a bare Node process restoring the same snapshot (bench/pyodideFloor.mjs)
//   - a fan-out: 1,000 llm_query_batched sub-calls, 16 at once, each answered after 200 ms, whole process
//   - a 50 MB needle: a regex over `context` finds a code in the middle of a 50 MB file, whole process
import { rlmCommand, runCliAsk, shippedCli } from './cliAsk';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { median } from './benchTypes';
import type { BenchFigure } from './benchTypes';
import { makeInputs } from './startupBench';
import { watchTreeCpu } from './treeCpu';
import type { ThreadCpu } from './treeCpu';
import { startFakeModelServer } from '../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../src/eval/fakeServers/fakeServerTypes';

const GROUP = 'What the user waits for (rlm ask, spawned, from outside)';
const RUNS = Number(process.env.RLM_BENCH_RUNS ?? 5);
const TIME = '/usr/bin/time';
/** RLM_BENCH_ONLY=start,small,big,folder,cpu,children,fanout,needle: a subset of the figures (a busy machine, a 20-minute module limit). */
const ONLY = process.env.RLM_BENCH_ONLY?.split(',').map((s) => s.trim());

interface Build {
  label: 'new' | 'old';
  cli: string;
  /** Its own HOME: builds share no snapshot cache, so neither evicts the other's snapshot. */
  home: string;
}

interface Sample {
  firstRequestMs?: number;
  answerAfterFinalMs?: number;
  children?: Array<{ firstCellMs: number; wallMs: number }>;
  cpuS?: number;
  /** Where the CPU went, by process and thread (sampled runs only). */
  split?: CpuSplit;
  wallMs: number;
}

interface CpuSplit {
  host: number;
  replMain: number;
  /** The REPL process's busiest thread: the Pyodide worker, which runs Python. */
  replWorker: number;
  /** Every other thread of the REPL process: V8's helpers (its optimizing compiler, GC), the import() loader. */
  replHelpers: number;
  /** The busiest of those. */
  replBusiestHelper: number;
}

type Scenario = 'twoTurns' | 'children' | 'fanout' | 'needle';

/** The fan-out's sub-calls: as many prompts as the issue's comparison, each answered after 200 ms. */
const FANOUT = { prompts: 1000, latencyMs: 200 };
const SECRET = '48213907';

/** The root looks, then answers; or it asks four children in a row, each answering in its first turn. */
function reply(scenario: Scenario, request: FakeModelRequest): FakeResponse {
  const question = String(request.messages.find((m) => m.role === 'user')?.content ?? '');
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  if (/child \d: say ok/.test(question)) return '```repl\nFINAL("ok")\n```';
  if (/^p\d+$/.test(question.trim())) return { text: 'ok', latencyMs: FANOUT.latencyMs };
  if (scenario === 'fanout') return turn === 0 ? `\`\`\`repl\nrs = llm_query_batched([f"p{i}" for i in range(${FANOUT.prompts})])\nprint(len(rs))\n\`\`\`` : '```repl\nFINAL(str(len(rs)))\n```';
  if (scenario === 'needle') return turn === 0 ? '```repl\nimport re\nfound = re.search(r"vault code is (\\d{8})", context).group(1)\nprint(len(found))\n```' : '```repl\nFINAL_VAR("found")\n```';
  if (scenario === 'children') return turn === 0 ? '```repl\nfor i in range(4):\n    print(rlm_query(f"child {i}: say ok"))\n```' : '```repl\nFINAL("four children answered")\n```';
  return turn === 0 ? '```repl\nn = len(context)\nprint(n)\n```' : '```repl\nFINAL(str(n))\n```';
}

export async function run(): Promise<BenchFigure[]> {
  const builds: Build[] = [];
  const dir = mkdtempSync(join(tmpdir(), 'rlm-user-bench-'));
  const addBuild = (label: Build['label'], dist: string): void => {
    const cli = rlmCommand(dist);
    if (!existsSync(cli)) throw new Error(`${cli} is missing: build it first (npm run build)`);
    const home = join(dir, `home-${label}`);
    mkdirSync(home);
    builds.push({ label, cli, home });
  };
  addBuild('new', resolve(process.env.RLM_BENCH_DIST ?? dirname(await shippedCli())));
  if (process.env.RLM_BENCH_BASELINE_DIST) addBuild('old', resolve(process.env.RLM_BENCH_BASELINE_DIST));
  let scenario: Scenario = 'twoTurns';
  let firstAt = 0;
  let finalAt = 0;
  const server = await startFakeModelServer({
    protocol: 'openai',
    respond: (request) => {
      firstAt ||= performance.now();
      const text = reply(scenario, request);
      if (typeof text === 'string' && text.includes('FINAL(str(n))')) finalAt = performance.now();
      return text;
    },
  });
  const loadStart = loadavg()[0]!;
  const figures: BenchFigure[] = [];
  try {
    const inputs = makeInputs(dir, false);
    const askOnce = async (build: Build, path: string, how: { scenario: Scenario; cpu?: boolean; split?: boolean; expect?: string }): Promise<Sample> => {
      scenario = how.scenario;
      firstAt = 0;
      finalAt = 0;
      const trajectory = join(dir, `t-${Date.now()}-${Math.random().toString(36).slice(2)}.rlm.jsonl`);
      const cpuFile = join(dir, 'cpu.txt');
      let watch: ReturnType<typeof watchTreeCpu> | undefined;
      let hostPid = 0;
      const run = await runCliAsk({
        cli: build.cli,
        path,
        question: 'How long is it?',
        baseUrl: server.baseUrl,
        home: build.home,
        trajectory,
        ...(how.cpu ? { wrapper: [TIME, ['-f', '%U %S', '-o', cpuFile]] as [string, string[]] } : {}),
        ...(how.scenario === 'fanout' ? { extraArgs: ['--max-sub-calls', String(FANOUT.prompts), '--no-cache'] } : {}),
        ...(how.split ? { onSpawn: (pid: number) => ((hostPid = pid), (watch = watchTreeCpu(pid))) } : {}),
      });
      const threads = watch?.stop();
      // A fast wrong answer would be no figure at all.
      if (how.expect !== undefined && run.stdout.trim() !== how.expect) throw new Error(`${how.scenario}: expected the answer ${how.expect}, got ${JSON.stringify(run.stdout.trim().slice(0, 200))}`);
      const { wallMs, startedAt: started, firstStdoutAt: stdoutAt } = run;
      const sample: Sample = { wallMs, firstRequestMs: firstAt - started };
      if (finalAt && stdoutAt) sample.answerAfterFinalMs = stdoutAt - finalAt;
      if (how.cpu) sample.cpuS = readFileSync(cpuFile, 'utf8').trim().split(/\s+/).map(Number).reduce((a, b) => a + b, 0);
      if (how.scenario === 'children') sample.children = childTimes(trajectory);
      if (threads) sample.split = splitCpu(threads, hostPid);
      return sample;
    };
    // Interleaved: each round runs every build once, in alternating order.
    const rounds = async (path: string, how: { scenario: Scenario; cpu?: boolean; split?: boolean; expect?: string }): Promise<Map<Build['label'], Sample[]>> => {
      const samples = new Map<Build['label'], Sample[]>(builds.map((b) => [b.label, []]));
      for (let i = 0; i < RUNS; i++) {
        const order = i % 2 ? [...builds].reverse() : builds;
        for (const build of order) samples.get(build.label)!.push(await askOnce(build, path, how));
      }
      return samples;
    };
    const add = (name: string, unit: 'ms' | 's', values: Map<Build['label'], number[]>, target: { max: number; text: string }, note: string): void => {
      for (const build of builds) {
        const list = values.get(build.label) ?? [];
        if (!list.length) continue;
        const value = median(list);
        const digits = unit === 's' ? 100 : 1;
        figures.push({
          group: GROUP,
          name: `${name}${builds.length > 1 ? ` [${build.label}]` : ''}`,
          value: Math.round(value * digits) / digits,
          unit,
          runs: list.length,
          target: target.text,
          met: value <= target.max,
          note: `min ${fmt(Math.min(...list), unit)}, max ${fmt(Math.max(...list), unit)}; ${note}`,
        });
      }
    };
    const pick = (samples: Map<Build['label'], Sample[]>, of: (s: Sample) => number | undefined): Map<Build['label'], number[]> =>
      new Map([...samples].map(([label, list]) => [label, list.map(of).filter((v): v is number => v !== undefined)]));

    // Warm once per build: the snapshot cache and the page cache, as a user's second question finds them.
    for (const build of builds) await askOnce(build, inputs.small, { scenario: 'twoTurns' });
    const wanted = (part: string): boolean => !ONLY || ONLY.includes(part);
    for (const [label, path, goal] of [['1 KB file', inputs.small, 300], ['200 MB file', inputs.big, 300], ['20,000-file folder (100 MB)', inputs.folder, 500]] as const) {
      if (!wanted(label === '1 KB file' ? 'small' : label === '200 MB file' ? 'big' : 'folder')) continue;
      const samples = await rounds(path, { scenario: 'twoTurns' });
      add(`first root request after the command starts, ${label}`, 'ms', pick(samples, (s) => s.firstRequestMs), { max: goal, text: `≤ ${goal} ms` }, 'from spawn to the request at the fake server');
      if (label !== '1 KB file') add(`answer on stdout after the final root reply, ${label}`, 'ms', pick(samples, (s) => s.answerAfterFinalMs), { max: 100, text: '≤ 100 ms' }, 'from the fake server handing out the FINAL reply to the first byte on stdout');
    }
    if (wanted('start')) {
      // The start every `rlm` command pays, with V8's code cache (as users run it) and without it.
      const starts = new Map<Build['label'], Sample[]>(builds.map((b) => [b.label, []]));
      const uncached = new Map<Build['label'], Sample[]>(builds.map((b) => [b.label, []]));
      for (let i = 0; i < RUNS * 2; i++) {
        for (const build of i % 2 ? [...builds].reverse() : builds) {
          starts.get(build.label)!.push({ wallMs: timeVersion(build) });
          uncached.get(build.label)!.push({ wallMs: timeVersion(build, { RLM_NO_CODE_CACHE: '1' }) });
        }
      }
      add('rlm --version, command start to exit', 'ms', pick(starts, (s) => s.wallMs), { max: Infinity, text: '—' }, 'the start every rlm command pays: Node, then the bundle from V8\'s code cache (kept under the user\'s cache folder by the first run)');
      add('rlm --version without the code cache (RLM_NO_CODE_CACHE=1)', 'ms', pick(uncached, (s) => s.wallMs), { max: Infinity, text: '—' }, 'the same, compiling the 1.4 MB bundle afresh, in runs alternating with the ones above');
    }
    if (wanted('cpu')) {
      const cpu = await rounds(inputs.small, { scenario: 'twoTurns', cpu: true });
      add('CPU of a whole two-turn run, 1 KB file, all processes', 's', pick(cpu, (s) => s.cpuS), { max: 1.2, text: '≤ 1.2 s' }, 'user + system seconds of rlm and its REPL process tree (/usr/bin/time)');
      add('a whole two-turn run, 1 KB file, command start to exit', 'ms', pick(cpu, (s) => s.wallMs), { max: Infinity, text: '—' }, 'wall time, instant model');
      // Separate runs: sampling /proc every 5 ms takes CPU of its own, which the timed runs must not share.
      const split = await rounds(inputs.small, { scenario: 'twoTurns', split: true });
      const part = (name: string, of: (s: CpuSplit) => number, note: string): void => add(`CPU of the two-turn run, split: ${name}`, 's', pick(split, (s) => (s.split ? of(s.split) : undefined)), { max: Infinity, text: '—' }, `${note}; /proc sampled every 5 ms, in runs apart from the timed ones`);
      part('rlm (the host process)', (s) => s.host, 'Node start, the bundle, the SDK, the loop');
      part('REPL process, main thread', (s) => s.replMain, 'Node start under the permission model, the relay');
      part('REPL process, Pyodide worker thread', (s) => s.replWorker, 'its busiest thread: the worker start, the lockdown, Pyodide restored from its snapshot, the probes, the cells');
      part('REPL process, other threads', (s) => s.replHelpers, 'V8 compiling the hottest WebAssembly (the Python interpreter) with its optimizing compiler, GC, the import() loader thread');
      part('REPL process, its busiest other thread', (s) => s.replBusiestHelper, 'on this machine, perf shows V8 optimizing hot WebAssembly here');
      // Not a figure: the sandbox's `mount` processes live ~8 ms each, too short for a 5 ms sample to see.
      const floor = await floorRounds(builds);
      add('CPU of Pyodide alone: a bare Node process restoring the same snapshot, the two cells, exit', 's', pick(floor, (s) => s.cpuS), { max: Infinity, text: '—' }, 'what any fresh Pyodide per run costs at least: no sandbox, worker, lockdown, probes, host or model (bench/pyodideFloor.mjs, /usr/bin/time), in runs of its own');
      add('wall time of Pyodide alone, process start to the two cells done', 'ms', pick(floor, (s) => s.wallMs), { max: Infinity, text: '—' }, 'the same bare process, timed from its spawn');
    }
    if (wanted('children')) {
      const children = await rounds(inputs.small, { scenario: 'children' });
      // One value per child, not per command: every child of every run.
      const perChild = (of: (c: { firstCellMs: number; wallMs: number }) => number): Map<Build['label'], number[]> => new Map([...children].map(([label, list]) => [label, list.flatMap((s) => (s.children ?? []).map(of))]));
      add('a child run (rlm_query), 4 sequential, instant model, wall time each', 'ms', perChild((c) => c.wallMs), { max: 500, text: '≤ 500 ms' }, 'child.started to child.finished in the trajectory, every child of every run');
      add('rlm_query to the child\'s first cell', 'ms', perChild((c) => c.firstCellMs), { max: 50, text: '≤ 50 ms' }, 'child.started to the child\'s first cell.started');
    }
    if (wanted('fanout')) {
      // --no-cache: the same prompts in the same HOME would be answered from the sub-call cache after the first run.
      const fan = await rounds(inputs.small, { scenario: 'fanout', cpu: true, expect: String(FANOUT.prompts) });
      const ideal = (FANOUT.prompts / 16) * FANOUT.latencyMs;
      add(`fan-out: ${FANOUT.prompts.toLocaleString('en')} sub-calls, 16 at once, ${FANOUT.latencyMs} ms each, command start to exit`, 's', pick(fan, (s) => s.wallMs / 1000), { max: 13.8, text: '≤ 13.8 s (the reference implementation)' }, `the sub-calls alone take ${(ideal / 1000).toFixed(1)} s at best`);
      // The 16 replies of a wave are handled one after another on the host's one thread: the CPU per
      // sub-call is what keeps slots idle, and it is far less sensitive to the machine's load than wall time.
      add(`fan-out: CPU of the whole run, all processes`, 's', pick(fan, (s) => s.cpuS), { max: Infinity, text: '—' }, 'user + system seconds of rlm and its REPL process tree (/usr/bin/time)');
    }
    if (wanted('needle')) {
      const file = join(dir, 'needle.txt');
      writeNeedle(file, 50 * 1024 * 1024);
      const found = await rounds(file, { scenario: 'needle', expect: SECRET });
      add('50 MB needle: a regex over context, command start to exit', 's', pick(found, (s) => s.wallMs / 1000), { max: 2.1, text: '≤ 2.1 s (the reference implementation)' }, 'two turns: the regex, then FINAL_VAR');
    }
  } finally {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const loadEnd = loadavg()[0]!;
  for (const figure of figures) figure.note = `${figure.note}; load average ${loadStart.toFixed(1)} → ${loadEnd.toFixed(1)}`;
  return figures;
}

/** `rlm --version` of a build, spawned and timed to its exit, in the build's HOME (where its code cache lives). */
function timeVersion(build: Build, env: Record<string, string> = {}): number {
  const started = performance.now();
  execFileSync(process.execPath, [build.cli, '--version'], { encoding: 'utf8', timeout: 60_000, env: { PATH: process.env.PATH ?? '', HOME: build.home, ...env } });
  return performance.now() - started;
}

/** Pyodide alone (bench/pyodideFloor.mjs) on each build's own snapshot and runtime, RUNS times, interleaved as the other figures are. */
async function floorRounds(builds: Build[]): Promise<Map<Build['label'], Sample[]>> {
  const script = join(import.meta.dirname, 'pyodideFloor.mjs');
  const samples = new Map<Build['label'], Sample[]>(builds.map((b) => [b.label, []]));
  const cpuFile = join(tmpdir(), `rlm-floor-cpu-${process.pid}.txt`);
  for (let i = 0; i < RUNS; i++) {
    for (const build of i % 2 ? [...builds].reverse() : builds) {
      const snapshot = findSnapshot(build.home);
      const started = performance.now();
      const out = execFileSync(TIME, ['-f', '%U %S', '-o', cpuFile, process.execPath, '--single-threaded', script, join(dirname(build.cli), 'pyodide'), snapshot], { encoding: 'utf8', timeout: 120_000, env: { PATH: process.env.PATH ?? '' } });
      const wallMs = performance.now() - started;
      JSON.parse(out.trim().split('\n').at(-1)!);
      samples.get(build.label)!.push({ wallMs, cpuS: readFileSync(cpuFile, 'utf8').trim().split(/\s+/).map(Number).reduce((a, b) => a + b, 0) });
    }
  }
  rmSync(cpuFile, { force: true });
  return samples;
}

/** The snapshot the build's `rlm ask` runs cached under its HOME (the warm-up run made it). */
function findSnapshot(home: string): string {
  const found = readdirSync(home, { recursive: true, withFileTypes: true }).filter((e) => e.isFile() && /^pyodide-.*\.snapshot$/.test(e.name));
  if (found.length !== 1) throw new Error(`expected one Pyodide snapshot under ${home}, found ${found.length}`);
  return join(found[0]!.parentPath, found[0]!.name);
}

/** The threads of one `rlm ask` by what they are: the host and the REPL process's threads (the sandbox's brief mounts are not counted). */
function splitCpu(threads: ThreadCpu[], hostPid: number): CpuSplit {
  const split: CpuSplit = { host: 0, replMain: 0, replWorker: 0, replHelpers: 0, replBusiestHelper: 0 };
  const repl = new Map<number, ThreadCpu[]>();
  for (const thread of threads) {
    if (thread.pid === hostPid) split.host += thread.cpuS;
    else if (thread.commands.some((c) => c.includes('replProcess.js'))) repl.set(thread.pid, [...(repl.get(thread.pid) ?? []), thread]);
  }
  for (const [pid, list] of repl) {
    const others = list.filter((t) => t.tid !== pid).sort((a, b) => b.cpuS - a.cpuS);
    split.replMain += list.find((t) => t.tid === pid)?.cpuS ?? 0;
    split.replWorker += others[0]?.cpuS ?? 0;
    split.replBusiestHelper = Math.max(split.replBusiestHelper, others[1]?.cpuS ?? 0);
    split.replHelpers += others.slice(1).reduce((sum, t) => sum + t.cpuS, 0);
  }
  return split;
}

/** A file of plain ledger lines with the secret in the middle, written in blocks (no 50 MB string). */
function writeNeedle(file: string, bytes: number): void {
  const block = Buffer.from('The quarterly ledger lists shipments, invoices and routine notes from the northern depot.\n'.repeat(10_000));
  writeFileSync(file, '');
  for (let written = 0; written < bytes; written += block.length) {
    if (written < bytes / 2 && written + block.length >= bytes / 2) writeFileSync(file, `Note: the vault code is ${SECRET}.\n`, { flag: 'a' });
    writeFileSync(file, block, { flag: 'a' });
  }
}

function fmt(value: number, unit: 'ms' | 's'): string {
  return unit === 's' ? `${value.toFixed(2)} s` : `${Math.round(value)} ms`;
}

/** Each child run of the trajectory: rlm_query to its first cell, and to its end. */
function childTimes(trajectory: string): Array<{ firstCellMs: number; wallMs: number }> {
  const started = new Map<string, number>();
  const firstCell = new Map<string, number>();
  const times: Array<{ firstCellMs: number; wallMs: number }> = [];
  for (const line of readFileSync(trajectory, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const record = JSON.parse(line) as { type: string; ts: number; runId: string; childRunId?: string };
    if (record.type === 'child.started') started.set(record.childRunId!, record.ts);
    else if (record.type === 'cell.started' && started.has(record.runId) && !firstCell.has(record.runId)) firstCell.set(record.runId, record.ts);
    else if (record.type === 'child.finished') {
      const at = started.get(record.childRunId!)!;
      times.push({ firstCellMs: (firstCell.get(record.childRunId!) ?? record.ts) - at, wallMs: record.ts - at });
    }
  }
  if (times.length !== 4) throw new Error(`expected 4 child runs in ${trajectory}, found ${times.length}`);
  return times;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  run().then(
    (figures) => figures.forEach((figure) => console.log(JSON.stringify(figure))),
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
