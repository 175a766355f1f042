// The progress notification of a command-started run (Cancel stops it) and the notification at its
// end with the answer's first line, "Open trajectory" and "Copy answer".
import * as vscode from 'vscode';
import type { RunResult } from '../../core/loop/loopTypes';
import { describeRunError } from '../errors/describeError';
import { showUserMessage } from '../userMessages';
import type { ActiveRun } from './activeRun';
import { formatLiveLine } from '../../shared/liveLine';

/** Follows `run` in a cancellable progress notification until it ends. */
export function followWithProgress(run: ActiveRun, title: string): Thenable<RunResult> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title, cancellable: true },
    async (progress, token) => {
      const cancel = token.onCancellationRequested(() => run.stop());
      let last = '';
      // Redrawn on the run's tick, with the status bar, the chat and the view.
      const stopFollowing = run.onTick(() => {
        const line = `${formatLiveLine(run.progress)} · ${run.progress.activity}`;
        if (line !== last) progress.report({ message: line });
        last = line;
      });
      try {
        return await run.result;
      } finally {
        stopFollowing();
        cancel.dispose();
      }
    },
  );
}

export function firstLine(answer: string): string {
  const line = answer.split('\n').find((l) => l.trim() !== '') ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

export interface EndActions {
  openTrajectory(path: string): Promise<void>;
}

/** Shows the outcome of a finished run. */
export async function notifyRunEnded(run: ActiveRun, result: RunResult, actions: EndActions): Promise<void> {
  const path = run.trajectoryPath;
  if (result.answer !== undefined && (result.status === 'completed' || result.status === 'forced' || result.status === 'limit')) {
    const prefix = result.status === 'completed' ? 'RLM' : result.status === 'forced' ? 'RLM (best answer at the iteration limit)' : 'RLM (partial, stopped at a limit)';
    const buttons = ['Copy answer', ...(path ? ['Open trajectory'] : [])];
    const picked = await vscode.window.showInformationMessage(`${prefix}: ${firstLine(result.answer)}`, ...buttons);
    if (picked === 'Copy answer') await vscode.env.clipboard.writeText(result.answer);
    if (picked === 'Open trajectory' && path) await actions.openTrajectory(path);
    return;
  }
  if (result.status === 'cancelled') {
    const picked = await vscode.window.showInformationMessage('RLM: the run was stopped.', ...(path ? ['Open trajectory'] : []));
    if (picked === 'Open trajectory' && path) await actions.openTrajectory(path);
    return;
  }
  await showUserMessage(describeRunError(result.error ?? { kind: 'unknown', message: `the run ended with status ${result.status}` }));
}
