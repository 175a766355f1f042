// "Stop", "Show log", "Open trajectory..." and "Export trajectory...".
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { RlmServices } from '../rlmServices';
import { registerSafeCommand } from './commandSupport';

export async function stopRuns(services: RlmServices): Promise<void> {
  const runs = services.registry.active();
  if (runs.length === 0) {
    void vscode.window.showInformationMessage('RLM: no run is in progress.');
    return;
  }
  if (runs.length === 1) {
    runs[0]?.stop();
    return;
  }
  const picked = await vscode.window.showQuickPick(
    [{ label: 'Stop all', run: undefined }, ...runs.map((run) => ({ label: run.question, description: run.progress.activity, run }))],
    { title: 'RLM: Stop which run?' },
  );
  if (!picked) return;
  if (picked.run) picked.run.stop();
  else for (const run of runs) run.stop();
}

async function pickTrajectoryFile(services: RlmServices, openLabel: string): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectMany: false,
    openLabel,
    defaultUri: vscode.Uri.file(services.trajectoryDirectory()),
    filters: { 'RLM trajectories': ['jsonl'], 'All files': ['*'] },
  });
  return picked?.[0];
}

export async function openTrajectory(services: RlmServices, arg?: unknown): Promise<void> {
  const uri = arg instanceof vscode.Uri ? arg : await pickTrajectoryFile(services, 'Open trajectory');
  if (uri) await services.openTrajectory(uri.fsPath);
}

export async function exportTrajectory(services: RlmServices, arg?: unknown): Promise<void> {
  const uri = arg instanceof vscode.Uri ? arg : await pickTrajectoryFile(services, 'Export this trajectory');
  if (!uri) return;
  const format = await vscode.window.showQuickPick(
    [
      { label: 'Jupyter notebook (.ipynb)', ext: 'ipynb' as const },
      { label: 'Markdown (.md)', ext: 'md' as const },
    ],
    { title: `Export ${basename(uri.fsPath)} as...` },
  );
  if (!format) return;
  const stem = basename(uri.fsPath).replace(/\.rlm\.jsonl$|\.jsonl$/, '');
  const target = await vscode.window.showSaveDialog({
    defaultUri: vscode.Uri.joinPath(vscode.workspace.workspaceFolders?.[0]?.uri ?? vscode.Uri.file(services.trajectoryDirectory()), `${stem}.${format.ext}`),
    filters: format.ext === 'ipynb' ? { 'Jupyter notebook': ['ipynb'] } : { Markdown: ['md'] },
  });
  if (!target) return;
  // The reader and exporters are loaded on use: nothing of them runs at activation.
  const { readTrajectory } = await import('../../core/trajectory/trajectoryReader');
  const read = await readTrajectory(uri.fsPath);
  if (!read.tree) throw new Error(`${basename(uri.fsPath)} holds no run to export.`);
  const { exportToFile } = await import('../../core/trajectory/exportFile');
  exportToFile(read.runs, format.ext === 'ipynb' ? 'ipynb' : 'md', target.fsPath);
  const problems = read.problems.length ? ` (${read.problems.length} problem${read.problems.length === 1 ? '' : 's'} in the file were skipped; see the log)` : '';
  for (const p of read.problems) services.log.warn(`${uri.fsPath}:${p.line}: ${p.message}`);
  const open = await vscode.window.showInformationMessage(`RLM: exported to ${basename(target.fsPath)}${problems}.`, 'Open');
  if (open === 'Open') await vscode.commands.executeCommand('vscode.open', target);
}

export function registerRunCommands(services: RlmServices): vscode.Disposable[] {
  return [
    registerSafeCommand(services, 'rlm.stop', () => stopRuns(services)),
    registerSafeCommand(services, 'rlm.showLog', () => services.log.show()),
    registerSafeCommand(services, 'rlm.openTrajectory', (arg) => openTrajectory(services, arg)),
    registerSafeCommand(services, 'rlm.exportTrajectory', (arg) => exportTrajectory(services, arg)),
  ];
}
