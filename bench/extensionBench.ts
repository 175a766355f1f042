// Extension figures of issue 6: the activation cost of dist/extension.js (load + activate(), median of
// fresh processes, with the SDKs, Pyodide and the engine bundle checked to stay unloaded) and the size of
// the bundle and of the packaged VSIX.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { median } from './benchTypes';
import type { BenchFigure } from './benchTypes';

const GROUP = 'Extension';
const repo = resolve(import.meta.dirname, '..');
const RUNS = 7;

function activationRuns(bundle: string): Array<{ loadMs: number; activateMs: number; totalMs: number; heavy: string[] }> {
  const out = [];
  for (let i = 0; i < RUNS; i++) {
    const child = spawnSync(process.execPath, [join(import.meta.dirname, 'extension', 'activationProbe.mjs'), bundle], { encoding: 'utf8', timeout: 60_000 });
    if (child.status !== 0) throw new Error(`activation probe failed: ${child.stderr.slice(-2000)}`);
    out.push(JSON.parse(child.stdout) as { loadMs: number; activateMs: number; totalMs: number; heavy: string[] });
  }
  return out;
}

export async function run(): Promise<BenchFigure[]> {
  const bundle = join(repo, 'dist', 'extension.js');
  statSync(bundle); // npm run bench builds first; fail clearly otherwise
  const runs = activationRuns(bundle);
  const heavy = [...new Set(runs.flatMap((r) => r.heavy))];
  if (heavy.length) throw new Error(`activation loaded heavy modules: ${heavy.join(', ')}`);
  const total = median(runs.map((r) => r.totalMs));
  const figures: BenchFigure[] = [
    { group: GROUP, name: 'activation: load dist/extension.js + activate() (outside VS Code, stand-in API)', value: Number(total.toFixed(1)), unit: 'ms', runs: RUNS, target: '≤ 50 ms', met: total <= 50, note: `load ${median(runs.map((r) => r.loadMs)).toFixed(1)} ms, activate() ${median(runs.map((r) => r.activateMs)).toFixed(1)} ms; SDKs, Pyodide and dist/engine.js not loaded` },
    { group: GROUP, name: 'dist/extension.js size', value: Math.round(statSync(bundle).size / 1024), unit: 'KB', runs: 1, note: 'the engine (loop, SDKs, REPL host) is dist/engine.js, loaded on the first run' },
  ];
  const scratch = mkdtempSync(join(tmpdir(), 'rlm-vsix-'));
  try {
    const vsix = join(scratch, 'rlm-vscode.vsix');
    execFileSync(process.execPath, [join(repo, 'node_modules', '@vscode', 'vsce', 'vsce'), 'package', '--no-dependencies', '--allow-missing-repository', '--out', vsix], { cwd: repo, stdio: 'pipe', timeout: 300_000 });
    const mb = statSync(vsix).size / 1024 / 1024;
    figures.push({ group: GROUP, name: 'VSIX size', value: Number(mb.toFixed(2)), unit: 'MB', runs: 1, target: '≤ 10 MB', met: mb <= 10, note: 'packaged from the current dist/ (Pyodide runtime included)' });
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  return figures;
}
