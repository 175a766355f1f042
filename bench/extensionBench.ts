// Extension figures of issue 6: the activation cost of dist/extension.js (load + activate(), median of
// fresh processes, with the SDKs, Pyodide and the engine bundle checked to stay unloaded) and the size of
// the bundle and of the packaged VSIX. The VSIX is the one `npm run package` makes: a production build,
// packaged in a scratch copy, so the figure does not depend on what dist/ holds at the time.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './benchTypes';
import type { BenchFigure } from './benchTypes';

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
  const bundle = join(repo, 'dist', 'extension.js');
  statSync(bundle); // npm run bench builds first; fail clearly otherwise
  const runs = activationRuns(bundle);
  const heavy = [...new Set(runs.flatMap((r) => r.heavy))];
  if (heavy.length) throw new Error(`activation loaded heavy modules: ${heavy.join(', ')}`);
  const total = median(runs.map((r) => r.totalMs));
  const figures: BenchFigure[] = [
    { group: GROUP, name: 'activation: load dist/extension.js + activate() (outside VS Code, stand-in API)', value: Number(total.toFixed(1)), unit: 'ms', runs: RUNS, target: '≤ 50 ms', met: total <= 50, note: `load ${median(runs.map((r) => r.loadMs)).toFixed(1)} ms, activate() ${median(runs.map((r) => r.activateMs)).toFixed(1)} ms; CPU ${median(runs.map((r) => r.cpuMs)).toFixed(1)} ms${mainThread(runs)}; SDKs, Pyodide, dist/engine.js and zod not loaded` },
  ];
  figures.push(...(await packageFigures()));
  return figures;
}

/** The shipped sizes: dist/extension.js and the VSIX of a production build. */
async function packageFigures(): Promise<BenchFigure[]> {
  const scratch = mkdtempSync(join(tmpdir(), 'rlm-vsix-'));
  try {
    for (const file of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE']) copyFileSync(join(repo, file), join(scratch, file));
    cpSync(join(repo, 'media'), join(scratch, 'media'), { recursive: true });
    const { buildAll } = await import('../esbuild.mjs');
    await buildAll({ outdir: join(scratch, 'dist'), production: true });
    const vsce = (...args: string[]): string =>
      execFileSync(process.execPath, [join(repo, 'node_modules', '@vscode', 'vsce', 'vsce'), ...args, '--no-dependencies'], { cwd: scratch, encoding: 'utf8', stdio: 'pipe', timeout: 300_000 });
    const files = vsce('ls').split('\n').filter(Boolean);
    if (files.some((f) => f.endsWith('.map'))) throw new Error('the VSIX would carry source maps');
    const vsix = join(scratch, 'rlm-vscode.vsix');
    vsce('package', '--allow-missing-repository', '--out', vsix);
    const mb = statSync(vsix).size / 1024 / 1024;
    const extensionKb = Math.round(statSync(join(scratch, 'dist', 'extension.js')).size / 1024);
    const note = `production build, as npm run package makes it: ${files.length} files (Pyodide runtime included; the same files as the npm package, dist/cli.js among them)`;
    return [
      { group: GROUP, name: 'dist/extension.js size', value: extensionKb, unit: 'KB', runs: 1, note: 'production build; the engine (loop, SDKs, REPL host) is dist/engine.js, loaded on the first run' },
      { group: GROUP, name: 'VSIX size', value: Number(mb.toFixed(2)), unit: 'MB', runs: 1, target: '≤ 10 MB', met: mb <= 10, note },
    ];
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
