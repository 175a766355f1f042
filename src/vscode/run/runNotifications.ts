// The progress notification of a command-started run (its Stop link stops it) and the notification at its
// end with the answer's first line, "Open trajectory" and "Copy answer".
import * as vscode from 'vscode';
import type { RunResult } from '../../core/loop/loopTypes';
import { clip, firstPlainLine } from '../../shared/text/plainText';
import { runModelsAndDepth } from '../../core/trajectory/runModels';
import { promptForPrice } from '../settings/priceSetting';
import type { ActiveRun } from './activeRun';
import { describeError } from '../errors/describeError';
import { showWithSteps } from '../errors/userMessages';
import { describeOutcome, stepsOf } from '../errors/outcomeWording';
import { formatLiveLine } from '../../shared/text/liveLine';
import { noticeText } from '../../shared/text/untrustedText';

/**
 * The notification's title. VS Code writes "title: message", so the question is quoted: a question
 * mark followed by a colon ("name?: turn 2") reads as a typo.
 */
function progressTitle(question: string): string {
  return noticeText(`RLM: “${clip(question.replace(/\s+/g, ' ').trim(), 80)}”`);
}

/**
 * The Stop link of the progress notification. VS Code names a cancellable notification's button
 * "Cancel" and offers no way to rename it, while every other surface says Stop; so the notification is
 * not cancellable and its message ends with a link that runs rlm.stop for this run (notifications open
 * command links), as the status bar item does when clicked.
 */
function stopLink(runId: string): string {
  return `[Stop](command:rlm.stop?${encodeURIComponent(JSON.stringify([runId]))})`;
}

/** Follows `run` in a progress notification until it ends (titled by its question), with a Stop link. */
export function followWithProgress(run: ActiveRun, _title?: string): Thenable<RunResult> {
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: progressTitle(run.question), cancellable: false },
    async (progress) => {
      let last = '';
      const stop = stopLink(run.runId);
      // Redrawn on the run's tick, with the status bar, the chat and the view.
      const redraw = (): void => {
        const line = `${formatLiveLine(run.progress)} · ${run.progress.activity}`;
        if (line !== last) progress.report({ message: run.stopping ? `${line} · stopping…` : `${line} · ${stop}` });
        last = line;
      };
      redraw();
      const stopFollowing = run.onTick(redraw);
      try {
        return await run.result;
      } finally {
        stopFollowing();
      }
    },
  );
}

/** The answer's first line as plain text (notifications render no Markdown). */
export function firstLine(answer: string): string {
  return firstPlainLine(answer, 200);
}

export interface EndActions {
  openTrajectory(path: string): Promise<void>;
  /** Puts the question in the chat's box, to ask it again. */
  askAgain(question: string): Promise<void>;
  openSetting(setting: string): Promise<void>;
}

/**
 * Shows the outcome of a finished run: the answer's first line, or how it ended in words (a stop is
 * information, not an error), with the actions that help next.
 */
export async function notifyRunEnded(run: ActiveRun, result: RunResult, actions: EndActions): Promise<void> {
  const path = run.trajectoryPath;
  const outcome = describeOutcome({ status: result.status, ...(result.error ? { error: result.error } : {}), turns: run.turnsCompleted });
  // A loop that threw carries the typed error, which names the server (and so the key) the record cannot.
  if (run.error !== undefined && result.status === 'error') Object.assign(outcome, { detail: describeError(run.error).text }, stepsOf(describeError(run.error)));
  const unpriced = run.tree.tree ? runModelsAndDepth(run.tree.tree).unpriced : [];
  const buttons: string[] = [];
  if (result.answer !== undefined) buttons.push('Copy answer');
  if (outcome.askAgain) buttons.push('Ask again');
  if (outcome.setting) buttons.push(`Open ${outcome.setting}`);
  if (path) buttons.push('Open trajectory');
  if (unpriced.length) buttons.push('Set a price…');
  const text =
    result.answer !== undefined
      ? `RLM${result.status === 'completed' ? '' : ` (${outcome.headline.toLowerCase()})`}: ${firstLine(result.answer)}`
      : `RLM: ${outcome.headline}.${outcome.detail ? ` ${outcome.detail}` : ''}`;
  const severity = outcome.tone === 'error' ? 'error' : outcome.tone === 'warning' ? 'warning' : 'info';
  // The failure's own next step comes first ("Configure models..."), then what any ended run offers.
  const picked = await showWithSteps(severity, text, outcome.steps ?? [], outcome.keySlot, buttons);
  if (picked === 'Copy answer' && result.answer !== undefined) await vscode.env.clipboard.writeText(result.answer);
  if (picked === 'Ask again') await actions.askAgain(run.question);
  if (picked === `Open ${outcome.setting}` && outcome.setting) await actions.openSetting(outcome.setting);
  if (picked === 'Open trajectory' && path) await actions.openTrajectory(path);
  if (picked === 'Set a price…') await promptForPrice(unpriced);
}
