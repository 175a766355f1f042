// Extension figures of issue 6, all on the production build that ships (a scratch copy, so they do not
// depend on what dist/ holds): the activation cost of dist/extension.js (load + activate(), median of
// fresh processes, with the SDKs, Pyodide and the engine bundle checked to stay unloaded), the size of
// the bundle, and the size of the VSIX that `npm run package` makes.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './benchTypes';
import type { BenchFigure } from './benchTypes';
import { CLI_ONLY_FILES, stageVsix, vsce } from '../scripts/packageVsix.mjs';

const GROUP = 'Extension';
const repo = resolve(import.meta.dirname, '..');
const RUNS = 7;

interface ProbeResult {
  loadMs: number;
  activateMs: number;
  totalMs: number;
  /** CPU of the whole probe process during load + activate(), and of its main thread alone (Linux). */
  cpuMs: number;
  mainThreadCpuMs?: number;
  heavy: string[];
}

function activationRuns(bundle: string): Array<ProbeResult> {
  const out = [];
  for (let i = 0; i < RUNS; i++) {
    const child = spawnSync(process.execPath, [join(import.meta.dirname, 'extension', 'activationProbe.mjs'), bundle], { encoding: 'utf8', timeout: 60_000 });
    if (child.status !== 0) throw new Error(`activation probe failed: ${child.stderr.slice(-2000)}`);
    out.push(JSON.parse(child.stdout) as ProbeResult);
  }
  return out;
}

function mainThread(runs: ProbeResult[]): string {
  const ms = runs.map((r) => r.mainThreadCpuMs).filter((v) => v !== undefined);
  return ms.length === runs.length ? ` (main thread ${median(ms).toFixed(1)} ms)` : '';
}

export async function run(): Promise<BenchFigure[]> {
  // Everything is measured on the build that ships: `npm run package` builds it minified, `npm run
  // build` (which the tests use) does not, and loads about a twentieth slower.
  const scratch = mkdtempSync(join(tmpdir(), 'rlm-vsix-'));
  try {
    for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) copyFileSync(join(repo, file), join(scratch, file));
    cpSync(join(repo, 'media'), join(scratch, 'media'), { recursive: true });
    const { buildAll } = await import('../esbuild.mjs');
    await buildAll({ outdir: join(scratch, 'dist'), production: true });
    const runs = activationRuns(join(scratch, 'dist', 'extension.js'));
    const heavy = [...new Set(runs.flatMap((r) => r.heavy))];
    if (heavy.length) throw new Error(`activation loaded heavy modules: ${heavy.join(', ')}`);
    const total = median(runs.map((r) => r.totalMs));
    return [
      { group: GROUP, name: 'activation: load dist/extension.js + activate() (outside VS Code, stand-in API)', value: Number(total.toFixed(1)), unit: 'ms', runs: RUNS, target: '≤ 50 ms', met: total <= 50, note: `production build; load ${median(runs.map((r) => r.loadMs)).toFixed(1)} ms, activate() ${median(runs.map((r) => r.activateMs)).toFixed(1)} ms; CPU ${median(runs.map((r) => r.cpuMs)).toFixed(1)} ms${mainThread(runs)}; runs ${runs.map((r) => r.totalMs.toFixed(1)).join(', ')} ms; SDKs, Pyodide, dist/engine.js and zod not loaded` },
      ...packageFigures(scratch),
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The shipped sizes: dist/extension.js and the VSIX of the production build in `scratch`, packed as `npm run package` packs it. */
function packageFigures(scratch: string): BenchFigure[] {
  const stage = mkdtempSync(join(tmpdir(), 'rlm-vsix-stage-'));
  try {
    stageVsix({ root: repo, stage, dist: join(scratch, 'dist') });
    const files = vsce(stage, ['ls']).split('\n').filter(Boolean);
    if (files.some((f) => f.endsWith('.map'))) throw new Error('the VSIX would carry source maps');
    const vsix = join(scratch, 'rlm-vscode.vsix');
    vsce(stage, ['package', '--out', vsix]);
    const mb = statSync(vsix).size / 1024 / 1024;
    const extensionKb = Math.round(statSync(join(scratch, 'dist', 'extension.js')).size / 1024);
    const note = `production build, as npm run package makes it: ${files.length} files (Pyodide runtime included; the npm package's files but the command line, ${CLI_ONLY_FILES.join(' and ')})`;
    return [
      { group: GROUP, name: 'dist/extension.js size', value: extensionKb, unit: 'KB', runs: 1, note: 'production build; the engine (loop, SDKs, REPL host) is dist/engine.js, loaded on the first run' },
      { group: GROUP, name: 'VSIX size', value: Number(mb.toFixed(2)), unit: 'MB', runs: 1, target: '≤ 10 MB', met: mb <= 10, note },
    ];
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}
