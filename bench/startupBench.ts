// Start-up and footprint of `rlm ask`, measured on the CLI as it ships (production build) as a user runs it, against a fake
// OpenAI server that answers at once: when the root's first request arrives after the command starts,
// and when a two-turn run ends, for a 1 KB file, a 200 MB file and a 20,000-file folder; the summed peak
// RSS of the whole process tree for the 200 MB file; reading the folder against a plain python3 walk of
// it in the same run; and a whole turn (model request to next model request) through the real SDK.
import { execFileSync } from 'node:child_process';
import { buildSync } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { MB, runCliAsk } from './cliAsk';
import { median } from './benchTypes';
import type { BenchFigure } from './benchTypes';
import { createRlmRun } from '../src/core/loop/rlmRun';
import { createModelClient } from '../src/core/models/createModelClient';
import { createCliReplFactory } from '../src/cli/support/cliRepl';
import { startFakeModelServer } from '../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest } from '../src/eval/fakeServers/fakeServerTypes';

const GROUP = 'Start-up and footprint (rlm ask)';
const repo = resolve(import.meta.dirname, '..');
const RUNS = 3;

export async function run(): Promise<BenchFigure[]> {
  // The per-turn figure first: writing 300 MB of inputs leaves the kernel flushing them for seconds,
  // and a few milliseconds per turn are easily lost to that.
  const turns = await turnFigures();
  const dir = mkdtempSync(join(tmpdir(), 'rlm-startup-bench-'));
  try {
    const inputs = makeInputs(dir);
    return [...(await askFigures(dir, inputs)), ...folderReadFigures(inputs.folder, dir), ...turns];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

interface Inputs {
  small: string;
  big: string;
  /** The same log with one line that is not ASCII, at the start (only when asked for). */
  bigUnicode: string;
  folder: string;
}

/** A 1 KB file, a 200 MB log, a 20,000-file folder of 100 MB (and, with `unicode`, the log with one line not in ASCII). */
export function makeInputs(dir: string, unicode = true): Inputs {
  const small = join(dir, 'small.txt');
  writeFileSync(small, 'a line of a small log file\n'.repeat(38));
  const big = join(dir, 'big.log');
  const line = `${'2026-12-02T10:00:00Z INFO request served in 12 ms by worker 7 '.padEnd(99, '.')}\n`;
  const block = Buffer.from(line.repeat(10_000));
  writeFileSync(big, '');
  for (let written = 0; written < 200 * MB; written += block.length) writeFileSync(big, block, { flag: 'a' });
  const bigUnicode = join(dir, 'big-unicode.log');
  if (unicode) {
    writeFileSync(bigUnicode, '2026-12-02T09:59:59Z INFO user café → signed in\n');
    for (let written = 0; written < 200 * MB; written += block.length) writeFileSync(bigUnicode, block, { flag: 'a' });
  }
  const folder = join(dir, 'repo');
  const text = `${'export const value = compute(input, options);'.padEnd(79, ' ')}\n`.repeat(64);
  for (let d = 0; d < 100; d++) {
    mkdirSync(join(folder, `pkg${d}`), { recursive: true });
    for (let f = 0; f < 200; f++) writeFileSync(join(folder, `pkg${d}`, `file${f}.ts`), text);
  }
  return { small, big, bigUnicode, folder };
}

/** Two turns: look, then answer. */
function twoTurns(request: FakeModelRequest): string {
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  return turn === 0 ? '```repl\nn = len(context)\nprint(n)\n```' : '```repl\nFINAL(str(n))\n```';
}

interface AskSample {
  firstRequestMs: number;
  endMs: number;
  peakMb: number;
}

async function askFigures(dir: string, inputs: Inputs): Promise<BenchFigure[]> {
  let firstAt = 0;
  const server = await startFakeModelServer({
    protocol: 'openai',
    respond: (request) => {
      firstAt ||= performance.now();
      return twoTurns(request);
    },
  });
  const askOnce = async (path: string, sampleMemory: boolean): Promise<AskSample> => {
    firstAt = 0;
    const run = await runCliAsk({ path, question: 'How long is it?', baseUrl: server.baseUrl, home: dir, trajectory: join(dir, `t-${Date.now()}-${Math.random().toString(36).slice(2)}.rlm.jsonl`), sampleMemory });
    return { firstRequestMs: firstAt - run.startedAt, endMs: run.wallMs, peakMb: run.peakMb };
  };
  const figures: BenchFigure[] = [];
  try {
    // A first run warms the snapshot cache and the page cache, as a user's second question finds them.
    await askOnce(inputs.small, false);
    for (const [label, path] of [['1 KB file', inputs.small], ['200 MB file', inputs.big], ['20,000-file folder (100 MB)', inputs.folder]] as const) {
      const samples: AskSample[] = [];
      for (let i = 0; i < RUNS; i++) samples.push(await askOnce(path, label === '200 MB file'));
      const first = median(samples.map((s) => s.firstRequestMs));
      figures.push({
        group: GROUP,
        name: `first root request after the command starts, ${label}`,
        value: Math.round(first),
        unit: 'ms',
        runs: RUNS,
        target: '≤ 500 ms',
        met: first <= 500,
        note: `runs ${samples.map((s) => Math.round(s.firstRequestMs)).join(', ')} ms; the REPL starts and the input is read while the request is out`,
      });
      figures.push({ group: GROUP, name: `two-turn run, command start to exit, ${label}`, value: Math.round(median(samples.map((s) => s.endMs))), unit: 'ms', runs: RUNS, note: 'instant fake model; includes starting the REPL from its snapshot' });
      if (label === '200 MB file') {
        const peak = median(samples.map((s) => s.peakMb));
        figures.push({ group: GROUP, name: 'peak memory of all processes together, 200 MB file', value: Math.round(peak), unit: 'MB', runs: RUNS, target: '≤ 700 MB', met: peak <= 700, note: 'summed RSS of rlm and its REPL process tree, sampled every 10 ms; an ASCII log, written into its Python str as it streams' });
      }
    }
    const unicode: AskSample[] = [];
    for (let i = 0; i < RUNS; i++) unicode.push(await askOnce(inputs.bigUnicode, true));
    figures.push({
      group: GROUP,
      name: 'peak memory of all processes together, 200 MB file with one line not in ASCII',
      value: Math.round(median(unicode.map((s) => s.peakMb))),
      unit: 'MB',
      runs: RUNS,
      note: "the same log with 'café →' on its first line: CPython keeps the text at 2 bytes per character (about 400 MB for the str alone), and a text that is not all ASCII is decoded from a buffer of its bytes, held beside the str while it decodes",
    });
  } finally {
    await server.close();
  }
  return figures;
}

const PYTHON_WALK = `
import os, sys, time
t = time.perf_counter()
n = 0
for root, dirs, files in os.walk(sys.argv[1]):
    for f in files:
        with open(os.path.join(root, f), 'rb') as fh:
            n += len(fh.read())
print((time.perf_counter() - t) * 1000)
`;

/**
 * Our read of the folder (the walk and every file, as `rlm ask` streams it) against python3's walk-and-read,
 * interleaved. Ours runs bundled and minified as the CLI ships it: through tsx, the modules the walk
 * loads on first use were compiled by tsx's loader inside the timed window (a sixth of it in a profile).
 */
function folderReadFigures(folder: string, dir: string): BenchFigure[] {
  const ours: number[] = [];
  const python: number[] = [];
  const script = join(dir, 'folderRead.cjs');
  buildSync({
    stdin: {
      contents: [
        "import { planPaths } from './src/core/context/contextPlan';",
        "import { streamContext } from './src/core/repl/contextStream';",
        'void (async () => {',
        '  const t = performance.now();',
        '  const plan = await planPaths([process.argv[2]!]);',
        "  await streamContext({ kind: 'plan', plan }, { write: async () => undefined }, 1 << 30);",
        '  process.stdout.write(String(performance.now() - t));',
        '})();',
      ].join('\n'),
      resolveDir: repo,
      loader: 'ts',
    },
    outfile: script,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    minify: true,
    logLevel: 'error',
  });
  for (let i = 0; i < 7; i++) {
    // Each in a fresh process, as a command would: the first touch of the folder is not counted (cache warm).
    ours.push(Number(execFileSync(process.execPath, [script, folder], { encoding: 'utf8' })));
    python.push(Number(execFileSync('python3', ['-c', PYTHON_WALK, folder], { encoding: 'utf8' })));
  }
  const ratio = median(ours) / median(python);
  return [
    {
      group: GROUP,
      name: 'reading a 20,000-file folder (walk and every file), against python3 os.walk + read',
      value: Math.round(ratio * 100) / 100,
      unit: 'x',
      runs: ours.length,
      target: '≤ 1.5x',
      met: ratio <= 1.5,
      note: `ours median ${Math.round(median(ours))} ms (walk, stat, read, binary check, frames; bundled as the CLI ships), python3 median ${Math.round(median(python))} ms; interleaved runs`,
    },
  ];
}

/** A whole turn with an instant model through the real SDK: from one root request's arrival to the next. */
async function turnFigures(): Promise<BenchFigure[]> {
  const figures: BenchFigure[] = [];
  for (const protocol of ['openai', 'anthropic'] as const) {
    const arrivals: number[] = [];
    const server = await startFakeModelServer({ protocol, respond: () => (arrivals.push(performance.now()), '```repl\nx = 1\n```') });
    const client = createModelClient({ provider: protocol, baseUrl: server.baseUrl, model: 'bench', maxRetries: 0 });
    const gaps: number[] = [];
    try {
      for (let round = 0; round < 3; round++) {
        // The REPL pool as `rlm ask` makes it: its one REPL started ahead, and no spare started beside
        // the run (refillAfterFirst). A pool that refills on acquire starts a whole REPL process in the
        // background while the turns are timed, which on two cores costs more than the turn itself.
        const repl = createCliReplFactory({ distDir: join(repo, 'dist'), spares: 1, refillAfterFirst: true });
        try {
          await repl.sparesReady();
          arrivals.length = 0;
          const run = createRlmRun({ question: 'bench', context: { kind: 'text', text: 'tiny' }, root: client, repl, limits: { maxIterations: 40 } });
          await run.run();
          if (repl.spareCount > 0) throw new Error('a spare REPL was started while the turns were timed');
        } finally {
          await repl.dispose();
        }
        for (let i = 3; i < arrivals.length - 1; i++) gaps.push(arrivals[i + 1]! - arrivals[i]!);
      }
    } finally {
      await server.close();
    }
    const value = Math.round(median(gaps) * 100) / 100;
    figures.push({
      group: GROUP,
      name: `a whole turn with an instant model, request to next request (${protocol} SDK, streamed)`,
      value,
      unit: 'ms',
      runs: gaps.length,
      target: '≤ 5 ms',
      met: value <= 5,
      note: `p90 ${Math.round([...gaps].sort((a, b) => a - b)[Math.floor(gaps.length * 0.9)]! * 100) / 100} ms; turns 4 to 40 of three 40-turn runs, each on a REPL pool made as \`rlm ask\` makes it (no spare REPL starting during the turns); the fake server runs in the same process, so its own work is counted`,
    });
  }
  return figures;
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
