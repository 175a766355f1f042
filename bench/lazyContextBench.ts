// A folder larger than the REPL holds: 100,000 files, over 2 GB, one needle line. `rlm ask` (the production dist/cli.js,
// a fake OpenAI server that answers at once) binds it lazily and finds the needle with search(): the
// answer, when the first root request arrives, and the summed peak memory of every process. search() on
// the host (ripgrep from PATH, as the CLI uses it) against `rg` and `grep -r` over the same tree, warm;
// the streamed scan used without ripgrep; and a 50 MB folder that must still bind eagerly.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { median } from './benchTypes';
import type { BenchFigure } from './benchTypes';
import { MB, runCliAsk } from './cliAsk';
import { planPaths } from '../src/core/context/contextPlan';
import { hostSearch } from '../src/core/context/hostSearch';
import { ripgrepOnPath } from '../src/cli/support/ripgrepOnPath';
import { startFakeModelServer } from '../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest } from '../src/eval/fakeServers/fakeServerTypes';

const GROUP = 'Lazy folder context (2 GB, 100,000 files)';
const FILES = 100_000;
const FILE_BYTES = 21_600;
const NEEDLE = 'KESTREL-7731';
const PATTERN = 'the vault code is ([A-Z]+-\\d+)';
const RUNS = 3;
/** Side-by-side search timings: one run is about a second each, and three swung the ratio between 1.25 and 1.53 on this shared host. */
const SEARCH_RUNS = 7;

export async function run(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-lazy-bench-'));
  try {
    const big = makeBigFolder(dir);
    const small = makeSmallFolder(dir);
    return [...(await askFigures(dir, big, small)), ...(await searchFigures(big))];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function makeBigFolder(dir: string): string {
  const folder = join(dir, 'mono');
  const lines: string[] = [];
  for (let i = 0; lines.join('\n').length < FILE_BYTES - 100; i++) lines.push(`export function handler${i}(request: Request): Response { return respond(request, ${i * 7}); }`);
  const text = Buffer.from(`${lines.join('\n')}\n`.padEnd(FILE_BYTES, ' '));
  for (let d = 0; d < FILES / 100; d++) {
    const sub = join(folder, `pkg${String(d).padStart(4, '0')}`);
    mkdirSync(sub, { recursive: true });
    for (let f = 0; f < 100; f++) writeFileSync(join(sub, `mod${f}.ts`), text);
  }
  writeFileSync(join(folder, 'pkg0617', 'mod42.ts'), `${text.toString().slice(0, 10_000)}\n// the vault code is ${NEEDLE}\n${text.toString().slice(0, 10_000)}`);
  return folder;
}

function makeSmallFolder(dir: string): string {
  const folder = join(dir, 'small');
  const text = `${'export const value = compute(input, options);'.padEnd(79, ' ')}\n`.repeat(64);
  for (let d = 0; d < 50; d++) {
    mkdirSync(join(folder, `pkg${d}`), { recursive: true });
    for (let f = 0; f < 200; f++) writeFileSync(join(folder, `pkg${d}`, `file${f}.ts`), text);
  }
  return folder;
}

function script(request: FakeModelRequest): string {
  const turn = request.messages.filter((m) => m.role === 'assistant').length;
  if (turn === 0) return `\`\`\`repl\nimport time\nt = time.perf_counter()\nhs = search(r'${PATTERN}')\nprint(context_meta().get('mode'), round((time.perf_counter() - t) * 1000), hs[:1])\n\`\`\``;
  return "```repl\nFINAL(hs[0]['text'].split()[-1] if hs else 'not found')\n```";
}

interface AskSample {
  firstRequestMs: number;
  peakMb: number;
  answer: string;
  cell: string;
  /** The first request went out before the walk ended, with what it had found (contextShown.listing). */
  partial: boolean;
}

async function askFigures(dir: string, big: string, small: string): Promise<BenchFigure[]> {
  let firstAt = 0;
  const server = await startFakeModelServer({
    protocol: 'openai',
    respond: (request) => {
      firstAt ||= performance.now();
      return script(request);
    },
  });
  const askOnce = async (path: string): Promise<AskSample> => {
    firstAt = 0;
    const trajectory = join(dir, `t-${Date.now()}-${Math.random().toString(36).slice(2)}.rlm.jsonl`);
    const run = await runCliAsk({ path, question: 'What is the vault code?', baseUrl: server.baseUrl, home: dir, trajectory, sampleMemory: true });
    const records = readFileSync(trajectory, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; stdout?: string; contextShown?: { listing?: string } });
    const cells = records.filter((l) => l.type === 'cell.finished');
    const partial = records.some((l) => l.type === 'run.started' && l.contextShown?.listing === 'partial');
    return { firstRequestMs: firstAt - run.startedAt, peakMb: run.peakMb, answer: run.stdout.trim(), cell: cells[0]?.stdout ?? '', partial };
  };
  const figures: BenchFigure[] = [];
  try {
    await askOnce(small); // warms the snapshot cache
    const samples: AskSample[] = [];
    for (let i = 0; i < RUNS; i++) samples.push(await askOnce(big));
    const right = samples.every((s) => s.answer === NEEDLE);
    const first = median(samples.map((s) => s.firstRequestMs));
    const peak = median(samples.map((s) => s.peakMb));
    const inRepl = median(samples.map((s) => Number(s.cell.split(' ')[1] ?? NaN)));
    figures.push({ group: GROUP, name: 'rlm ask finds the needle by search() (right answer in every run)', value: samples.filter((s) => s.answer === NEEDLE).length, unit: 'x', runs: RUNS, target: `${RUNS} of ${RUNS}`, met: right, note: `answers: ${samples.map((s) => s.answer).join(', ')}; mode ${samples[0]?.cell.split(' ')[0]}` });
    figures.push({ group: GROUP, name: 'first root request after the command starts, 2 GB folder', value: Math.round(first), unit: 'ms', runs: RUNS, target: '≤ 2000 ms', met: first <= 2000, note: `runs ${samples.map((s) => Math.round(s.firstRequestMs)).join(', ')} ms; sent with the walk's partial figures in ${samples.filter((s) => s.partial).length} of ${RUNS} (a walk still going 1.2 s after the start goes on beside the request)` });
    figures.push({ group: GROUP, name: 'peak memory of all processes together, 2 GB folder', value: Math.round(peak), unit: 'MB', runs: RUNS, target: '≤ 1024 MB', met: peak <= 1024, note: 'summed RSS of rlm, its REPL and ripgrep, sampled every 10 ms' });
    figures.push({ group: GROUP, name: 'search() as the cell sees it, 2 GB folder', value: Math.round(inRepl), unit: 'ms', runs: RUNS, note: 'timed in Python around search(): bridge, ripgrep over the planned files in batches, hits back' });

    const eager: AskSample[] = [];
    for (let i = 0; i < RUNS; i++) eager.push(await askOnce(small));
    const mode = eager[0]?.cell.split(' ')[0];
    figures.push({ group: GROUP, name: 'a 50 MB folder (10,000 files) still binds eagerly', value: Math.round(median(eager.map((s) => s.firstRequestMs))), unit: 'ms', runs: RUNS, target: 'mode eager, first request ≤ 500 ms', met: mode === 'eager' && median(eager.map((s) => s.firstRequestMs)) <= 500, note: `mode ${mode}; first root request after the command starts` });
  } finally {
    await server.close();
  }
  return figures;
}

function timed(fn: () => unknown): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

async function searchFigures(big: string): Promise<BenchFigure[]> {
  const rg = ripgrepOnPath(process.env);
  const plan = await planPaths([big], { maxTotalBytes: 256 * MB });
  const figures: BenchFigure[] = [];
  const rgTimes: number[] = [];
  const ours: number[] = [];
  const grepTimes: number[] = [];
  // Warm: every engine reads the tree once before timing.
  spawnSync('grep', ['-rE', PATTERN, big], { stdio: 'ignore' });
  for (let i = 0; i < SEARCH_RUNS; i++) {
    if (rg) rgTimes.push(timed(() => spawnSync(rg, ['-e', PATTERN, big], { stdio: 'ignore' })));
    const t = performance.now();
    const outcome = await hostSearch({ pattern: PATTERN, flags: '', maxHits: 100 }, plan.files, { ...(rg ? { ripgrepPath: rg } : {}), maxFileBytes: plan.maxFileBytes });
    ours.push(performance.now() - t);
    if ('fallback' in outcome || outcome.hits.length !== 1) throw new Error(`host search found ${JSON.stringify(outcome).slice(0, 200)}`);
    grepTimes.push(timed(() => spawnSync('grep', ['-rE', PATTERN, big], { stdio: 'ignore' })));
  }
  const oursMs = median(ours);
  figures.push({ group: GROUP, name: 'search() on the host over 2 GB (ripgrep from PATH)', value: Math.round(oursMs), unit: 'ms', runs: SEARCH_RUNS, note: `runs ${ours.map(Math.round).join(', ')} ms` });
  if (rg) {
    const rgMs = median(rgTimes);
    figures.push({ group: GROUP, name: '`rg` on the same tree', value: Math.round(rgMs), unit: 'ms', runs: SEARCH_RUNS, note: `runs ${rgTimes.map(Math.round).join(', ')} ms` });
    figures.push({ group: GROUP, name: 'search() time / rg time', value: Number((oursMs / rgMs).toFixed(2)), unit: 'ratio', runs: SEARCH_RUNS, target: '≤ 1.5', met: oursMs / rgMs <= 1.5 });
  }
  figures.push({ group: GROUP, name: '`grep -rE` on the same tree', value: Math.round(median(grepTimes)), unit: 'ms', runs: SEARCH_RUNS, note: `runs ${grepTimes.map(Math.round).join(', ')} ms` });
  const scan = performance.now();
  await hostSearch({ pattern: PATTERN, flags: '', maxHits: 100 }, plan.files, { maxFileBytes: plan.maxFileBytes });
  figures.push({ group: GROUP, name: 'search() without ripgrep (streamed scan on the host)', value: Math.round(performance.now() - scan), unit: 'ms', runs: 1, note: 'the CLI without rg on PATH' });
  return figures;
}
