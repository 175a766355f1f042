// "Stop", "Show log", "Open trajectory..." and "Export trajectory...".
import { exportTargetUri } from '../trajectory/exportTarget';
import * as vscode from 'vscode';
import { basename } from 'node:path';
import type { RlmServices } from '../services/rlmServices';
import { registerSafeCommand } from './commandSupport';
import { pickTrajectory } from '../history/trajectoryPicker';
import { readHistoryItem } from '../history/historyIndex';
import { pickText } from '../../shared/text/untrustedText';

/** `runId`: the run a Stop link names (the progress notification's); otherwise the one running, or a pick. */
export async function stopRuns(services: RlmServices, runId?: unknown): Promise<void> {
  const runs = services.registry.active();
  const named = typeof runId === 'string' ? runs.find((r) => r.runId === runId) : undefined;
  if (named) {
    named.stop();
    return;
  }
  if (runs.length === 0) {
    void vscode.window.showInformationMessage('RLM: no run is in progress.');
    return;
  }
  if (runs.length === 1) {
    runs[0]?.stop();
    return;
  }
  const picked = await vscode.window.showQuickPick(
    [{ label: 'Stop all', run: undefined }, ...runs.map((run) => ({ label: pickText(run.question), description: run.progress.activity, run }))],
    { title: 'RLM: Stop which run?' },
  );
  if (!picked) return;
  if (picked.run) picked.run.stop();
  else for (const run of runs) run.stop();
}

export async function openTrajectory(services: RlmServices, arg?: unknown): Promise<void> {
  const uri = arg instanceof vscode.Uri ? arg : await pickTrajectory({ purpose: 'open', directory: services.trajectoryDirectory() });
  if (uri) await services.openTrajectory(uri.fsPath);
}

/** The run's question, clipped, for titles; the file name when the file has none. */
async function runTitle(path: string): Promise<string> {
  const question = (await readHistoryItem(path).catch(() => undefined))?.question.replace(/\s+/g, ' ').trim();
  if (!question) return basename(path);
  return question.length > 60 ? `${question.slice(0, 59)}…` : question;
}

export async function exportTrajectory(services: RlmServices, arg?: unknown): Promise<void> {
  const uri = arg instanceof vscode.Uri ? arg : await pickTrajectory({ purpose: 'export', directory: services.trajectoryDirectory(), livePath: services.views?.activeLivePath() });
  if (!uri) return;
  const format = await vscode.window.showQuickPick(
    [
      { label: 'Jupyter notebook (.ipynb)', ext: 'ipynb' as const },
      { label: 'Markdown (.md)', ext: 'md' as const },
    ],
    { title: `Export "${await runTitle(uri.fsPath)}" as...` },
  );
  if (!format) return;
  const target = await vscode.window.showSaveDialog({
    defaultUri: exportTargetUri(uri, basename(uri.fsPath), format.ext, vscode.Uri.file(services.trajectoryDirectory())),
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
    registerSafeCommand(services, 'rlm.stop', (runId?: unknown) => stopRuns(services, runId)),
    registerSafeCommand(services, 'rlm.showLog', () => services.log.show()),
    registerSafeCommand(services, 'rlm.openTrajectory', (arg) => openTrajectory(services, arg)),
    registerSafeCommand(services, 'rlm.exportTrajectory', (arg) => exportTrajectory(services, arg)),
  ];
}
