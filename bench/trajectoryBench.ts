// Trajectory benchmarks: writer cost per event, `rlm show` on a 300 MB file with flat memory (peak RSS
// measured in a child process, against a small file as the baseline), exporting that file with a peak
// near the reader's own, reading a 5,000-cell tree, and the size of a typical recorded turn.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './benchTypes';
import type { BenchFigure } from './benchTypes';
import { readTrajectory } from '../src/core/trajectory/trajectoryReader';
import { openTrajectoryWriter } from '../src/core/trajectory/trajectoryWriter';
import { generateTrajectory, syntheticEvents, syntheticHeader } from '../test/fixtures/trajectories/generate';
import type { SyntheticOptions } from '../test/fixtures/trajectories/generate';

const GROUP = 'Trajectory';
const root = resolve(import.meta.dirname, '..');

export async function run(): Promise<BenchFigure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-traj-bench-'));
  try {
    return [...writerFigures(dir), ...bytesPerTurn(dir), ...(await readFigures(dir)), ...showFigures(dir), ...exportFigures(dir)];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function writerFigures(dir: string): BenchFigure[] {
  const figures: BenchFigure[] = [];
  for (const fsyncEachLine of [false, true]) {
    const opts: SyntheticOptions = { cells: fsyncEachLine ? 100 : 2000, subCallsPerCell: 2, outputChars: 400 };
    const writer = openTrajectoryWriter(join(dir, `w-${fsyncEachLine}.rlm.jsonl`), syntheticHeader(opts), { fsyncEachLine, secrets: ['bench-secret-key-123456'] });
    const times: number[] = [];
    for (const record of syntheticEvents(opts)) {
      const t0 = process.hrtime.bigint();
      writer.write(record);
      times.push(Number(process.hrtime.bigint() - t0) / 1000);
    }
    writer.close();
    figures.push({
      group: GROUP,
      name: `writer: append + flush one event${fsyncEachLine ? ' (fsync each line)' : ' (write(2) per line, scrubbed)'}`,
      value: round(median(times), 1),
      unit: 'µs',
      runs: times.length,
      note: `p99 ${round(times.sort((a, b) => a - b)[Math.floor(times.length * 0.99)]!, 1)} µs`,
    });
  }
  return figures;
}

function bytesPerTurn(dir: string): BenchFigure[] {
  const file = generateTrajectory(join(dir, 'turns31.rlm.jsonl'), { cells: 31, subCallsPerCell: 0, outputChars: 400, modelTextChars: 500, codeChars: 150 });
  const perTurn = file.bytes / 31 / 1024;
  return [{
    group: GROUP,
    name: 'file size per turn (31 turns, 400-char outputs, 500-char model text, header included)',
    value: round(perTurn, 2),
    unit: 'KB',
    runs: 1,
    target: '≤ 2 KB',
    met: perTurn <= 2,
    note: `${file.bytes} bytes in total; grows linearly (no history repeated)`,
  }];
}

async function readFigures(dir: string): Promise<BenchFigure[]> {
  const path = join(dir, 'cells5000.rlm.jsonl');
  const file = generateTrajectory(path, { cells: 5000, subCallsPerCell: 4, outputChars: 400 });
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const read = await readTrajectory(path);
    times.push(performance.now() - t0);
    if (read.tree?.totals.subCalls !== 20_000) throw new Error(`expected 20,000 sub-calls, read ${read.tree?.totals.subCalls}`);
  }
  return [{ group: GROUP, name: 'read a 5,000-cell / 20,000-sub-call file into the tree', value: round(median(times), 0), unit: 'ms', runs: 3, note: `${(file.bytes / 1e6).toFixed(1)} MB` }];
}

function showFigures(dir: string): BenchFigure[] {
  const small = join(dir, 'small.rlm.jsonl');
  generateTrajectory(small, { cells: 10, subCallsPerCell: 2 });
  const mid = join(dir, 'mid.rlm.jsonl');
  generateTrajectory(mid, { cells: 350, subCallsPerCell: 4, outputChars: 50_000, promptChars: 1000, responseChars: 500 });
  const big = join(dir, 'big.rlm.jsonl');
  const t0 = performance.now();
  generateTrajectory(big, { cells: 5200, subCallsPerCell: 4, outputChars: 50_000, promptChars: 1000, responseChars: 500 });
  const writeMs = performance.now() - t0;
  const bigMb = statSync(big).size / 1e6;
  const base = showInChild(small);
  const midRun = showInChild(mid);
  const bigRun = showInChild(big);
  const growth = bigRun.rssMb - base.rssMb;
  return [
    { group: GROUP, name: `write a ${bigMb.toFixed(0)} MB trajectory through the writer`, value: round(bigMb / (writeMs / 1000), 0), unit: 'MB', runs: 1, note: 'MB per second, synthetic text generation included' },
    { group: GROUP, name: `rlm show: ${bigMb.toFixed(0)} MB trajectory, time`, value: round(bigRun.ms / 1000, 2), unit: 's', runs: 1 },
    {
      group: GROUP,
      name: `rlm show: ${bigMb.toFixed(0)} MB trajectory, peak RSS`,
      value: round(bigRun.rssMb, 0),
      unit: 'MB',
      runs: 1,
      target: '≤ baseline + 32 MB (flat)',
      met: growth <= 32,
      note: `baseline (tiny file) ${round(base.rssMb, 0)} MB; ${(statSync(mid).size / 1e6).toFixed(0)} MB file ${round(midRun.rssMb, 0)} MB; child runs show through tsx`,
    },
  ];
}

/** Exports the 300 MB file left by showFigures; the tree the reader builds is the floor, the export may add little to it. */
function exportFigures(dir: string): BenchFigure[] {
  const big = join(dir, 'big.rlm.jsonl');
  const mb = (statSync(big).size / 1e6).toFixed(0);
  const reader = readInChild(big, undefined);
  return (['md', 'ipynb'] as const).map((format) => {
    const exported = readInChild(big, format);
    const extra = exported.rssMb - reader.rssMb;
    return {
      group: GROUP,
      name: `rlm export --to ${format}: ${mb} MB trajectory, peak RSS`,
      value: round(exported.rssMb, 0),
      unit: 'MB',
      runs: 1,
      target: '≤ reader peak + 100 MB',
      met: extra <= 100,
      note: `reading the file alone peaks at ${round(reader.rssMb, 0)} MB; export took ${round(exported.ms / 1000, 1)} s`,
    };
  });
}

/** Reads a trajectory in a fresh process and, given a format, exports it there; reports wall time and peak RSS. */
function readInChild(path: string, format: 'md' | 'ipynb' | undefined): { ms: number; rssMb: number } {
  const script = [
    `const { readTrajectory } = require(${JSON.stringify(join(root, 'src/core/trajectory/trajectoryReader.ts'))});`,
    `const { exportToFile } = require(${JSON.stringify(join(root, 'src/core/trajectory/exportFile.ts'))});`,
    'const t0 = performance.now();',
    `readTrajectory(${JSON.stringify(path)}).then((read) => {`,
    format ? `  exportToFile(read.tree, ${JSON.stringify(format)}, ${JSON.stringify(`${path}.${format ?? ''}`)});` : '  if (!read.tree) throw new Error("no tree");',
    '  process.stdout.write(JSON.stringify({ ms: performance.now() - t0, maxRssKb: process.resourceUsage().maxRSS }));',
    '});',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, encoding: 'utf8', timeout: 300_000 });
  const result = JSON.parse(out) as { ms: number; maxRssKb: number };
  return { ms: result.ms, rssMb: result.maxRssKb / 1024 };
}

/** Runs `rlm show`'s function in a fresh process and reports its wall time and peak RSS. */
function showInChild(path: string): { ms: number; rssMb: number } {
  // A CommonJS script: this package is not "type": "module", so tsx loads its sources as CommonJS.
  const script = [
    `const { runShow } = require(${JSON.stringify(join(root, 'src/cli/commands/show.ts'))});`,
    'const sink = { write: () => true };',
    'const t0 = performance.now();',
    `runShow([${JSON.stringify(path)}], { stdout: sink, stderr: process.stderr }).then((code) => {`,
    '  const ms = performance.now() - t0;',
    '  process.stdout.write(JSON.stringify({ code, ms, maxRssKb: process.resourceUsage().maxRSS }));',
    '});',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: root, encoding: 'utf8', timeout: 300_000 });
  const result = JSON.parse(out) as { code: number; ms: number; maxRssKb: number };
  if (result.code !== 0) throw new Error(`rlm show exited ${result.code} on ${path}`);
  return { ms: result.ms, rssMb: result.maxRssKb / 1024 };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
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
