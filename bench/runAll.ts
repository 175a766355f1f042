// `npm run bench`: runs every bench/*Bench.ts module one after another and writes bench/RESULTS.md with
// the machine, every figure, its target and whether it was met. Each module runs in its own Node
// process (this file re-run with --module), so a crash, a hang or a leaked handle in one module is
// recorded as that module's failure and the others still run, and memory figures start clean.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, platform, release, tmpdir, totalmem } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchFigure, BenchModule } from './benchTypes';

const benchDir = resolve(import.meta.dirname);
/** A module that runs longer than this is stopped and recorded as failed. */
const MODULE_TIMEOUT_MS = 20 * 60_000;

interface ModuleOutcome {
  module: string;
  figures: BenchFigure[];
  error?: string;
  durationMs: number;
}

export function benchModules(dir: string = benchDir): string[] {
  return readdirSync(dir).filter((f) => /^[a-z][A-Za-z0-9]*Bench\.ts$/.test(f)).sort();
}

/** Runs each module of `dir` in its own process, one after another. */
export async function runModules(files: readonly string[], dir: string = benchDir, log: (text: string) => void = (t) => process.stderr.write(t)): Promise<ModuleOutcome[]> {
  const outcomes: ModuleOutcome[] = [];
  for (const file of files) {
    log(`bench: running ${file}…\n`);
    const outcome = await runInChild(file, dir, log);
    log(`bench: ${file}: ${outcome.error ? `FAILED: ${outcome.error}` : `${outcome.figures.length} figures`} (${(outcome.durationMs / 1000).toFixed(1)} s)\n`);
    outcomes.push(outcome);
  }
  return outcomes;
}

async function runInChild(file: string, dir: string, log: (text: string) => void): Promise<ModuleOutcome> {
  const scratch = mkdtempSync(join(tmpdir(), 'rlm-bench-'));
  const out = join(scratch, 'figures.json');
  const started = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', '--expose-gc', join(benchDir, 'runAll.ts'), '--module', join(dir, file), '--out', out], {
    stdio: ['ignore', 'inherit', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => {
    log(d.toString());
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), MODULE_TIMEOUT_MS);
  const code = await new Promise<number | null>((done) => child.on('exit', (c, signal) => done(signal ? null : c)));
  clearTimeout(timer);
  const durationMs = Date.now() - started;
  try {
    if (code !== 0) {
      const why = code === null ? `killed (timeout ${MODULE_TIMEOUT_MS / 60_000} min or crash)` : `exited with code ${code}`;
      return { module: file, figures: [], error: `${why}: ${lastLines(stderr)}`, durationMs };
    }
    const figures = JSON.parse(readFileSync(out, 'utf8')) as BenchFigure[];
    return { module: file, figures, durationMs };
  } catch (error) {
    return { module: file, figures: [], error: `no figures: ${(error as Error).message}`, durationMs };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-6).join(' / ') || '(no output)';
}

/** Child mode: import one module, run it, write its figures as JSON. */
async function runModule(path: string, out: string): Promise<void> {
  const file = basename(path);
  const mod = (await import(pathToFileURL(path).href)) as Partial<BenchModule>;
  if (typeof mod.run !== 'function') throw new Error(`${file} does not export run(): Promise<BenchFigure[]>`);
  const figures = await mod.run();
  if (!Array.isArray(figures)) throw new Error(`${file}: run() did not return an array of figures`);
  writeFileSync(out, JSON.stringify(figures));
}

interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGb: number;
  node: string;
  os: string;
  date: string;
  /** 1-minute load average when the run started and ended: on a shared machine it explains slow figures. */
  loadAtStart?: number;
  loadAtEnd?: number;
}

export function machineInfo(now: Date = new Date()): MachineInfo {
  const list = cpus();
  return {
    cpu: list[0]?.model.trim() ?? 'unknown',
    cores: list.length,
    memoryGb: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    os: `${platform()} ${release()}`,
    date: now.toISOString(),
  };
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function formatValue(f: BenchFigure): string {
  const digits = Math.abs(f.value) >= 100 ? 0 : Math.abs(f.value) >= 10 ? 1 : 2;
  return `${f.value.toFixed(digits)} ${f.unit}`;
}

export function renderResults(machine: MachineInfo, outcomes: ModuleOutcome[]): string {
  const lines = [
    '# Benchmark results',
    '',
    'Written by `npm run bench` (bench/runAll.ts). Each figure is a median over the runs shown, on this machine:',
    '',
    `- CPU: ${machine.cpu} × ${machine.cores} cores`,
    `- Memory: ${machine.memoryGb} GB`,
    `- Node: ${machine.node} on ${machine.os}`,
    `- Date: ${machine.date}`,
    ...(machine.loadAtStart !== undefined ? [`- Load average (1 min): ${machine.loadAtStart.toFixed(1)} at the start, ${machine.loadAtEnd?.toFixed(1) ?? '?'} at the end, on ${machine.cores} cores`] : []),
    '',
  ];
  const failed = outcomes.filter((o) => o.error);
  const figures = outcomes.flatMap((o) => o.figures.map((f) => ({ ...f, module: o.module })));
  const missed = figures.filter((f) => f.met === false);
  lines.push(
    `Summary: ${figures.length} figures from ${outcomes.length} modules; ${figures.filter((f) => f.met === true).length} targets met, ` +
      `${missed.length} missed; ${failed.length} module(s) failed.`,
    '',
  );
  if (failed.length > 0) {
    lines.push('## ⚠ Failed modules', '', 'These modules produced no figures (or only partial ones); their targets are unmeasured.', '');
    for (const o of failed) lines.push(`- **${o.module}**: ${cell(o.error!)}`);
    lines.push('');
  }
  const groups = [...new Set(figures.map((f) => f.group))];
  for (const group of groups) {
    lines.push(`## ${group}`, '', '| Figure | Value | Target | Met | Runs | Note |', '|---|---:|---|:---:|---:|---|');
    for (const f of figures.filter((x) => x.group === group)) {
      const met = f.met === undefined ? '—' : f.met ? '✅' : '❌ missed';
      lines.push(`| ${cell(f.name)} | ${formatValue(f)} | ${cell(f.target ?? '—')} | ${met} | ${f.runs} | ${cell(f.note ?? '')} |`);
    }
    lines.push('');
  }
  lines.push('## Modules', '', '| Module | Figures | Time | Status |', '|---|---:|---:|---|');
  for (const o of outcomes) lines.push(`| ${o.module} | ${o.figures.length} | ${(o.durationMs / 1000).toFixed(1)} s | ${o.error ? 'FAILED' : 'ok'} |`);
  lines.push('');
  return lines.join('\n');
}

async function main(argv: string[]): Promise<number> {
  const at = argv.indexOf('--module');
  if (at >= 0) {
    await runModule(argv[at + 1]!, argv[argv.indexOf('--out') + 1]!);
    return 0;
  }
  const only = argv.filter((a) => !a.startsWith('-'));
  const modules = benchModules().filter((m) => only.length === 0 || only.some((o) => m.startsWith(o)));
  if (modules.length === 0) {
    process.stderr.write(`bench: no bench/*Bench.ts module matches ${only.join(', ') || '(any)'}\n`);
    return 1;
  }
  const loadAtStart = loadavg()[0];
  const outcomes = await runModules(modules);
  const path = join(benchDir, only.length ? 'RESULTS.partial.md' : 'RESULTS.md');
  writeFileSync(path, renderResults({ ...machineInfo(), loadAtStart, loadAtEnd: loadavg()[0] }, outcomes));
  process.stderr.write(`bench: wrote ${path}\n`);
  return outcomes.some((o) => o.error) ? 1 : 0;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`bench: ${(error as Error).stack ?? String(error)}\n`);
      process.exit(1);
    },
  );
}
