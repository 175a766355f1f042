// Shows a UserMessage with its next steps as buttons, and runs the chosen step's command. Details
// of the underlying error go to the log, never into the notification.
import * as vscode from 'vscode';
import { describeError } from './describeError';
import type { UserMessage } from './describeError';
import type { KeySlot, NextStep } from '../../shared/nextStep';
import { NEXT_STEP_LABELS } from '../../shared/nextStep';
import { noticeText } from '../../shared/text/untrustedText';

/** The command a next step runs, with its arguments: also what the `@rlm` chat's buttons carry. */
export function stepCommand(step: NextStep, keySlot?: KeySlot): { command: string; arguments: unknown[] } {
  switch (step) {
    case 'setApiKey':
      // With the server named, the key box for it opens at once; without, the command asks which.
      return { command: 'rlm.setApiKey', arguments: keySlot ? [{ ...keySlot }] : [] };
    case 'configureModels':
      return { command: 'rlm.configureModels', arguments: [] };
    case 'testConnection':
      return { command: 'rlm.testConnection', arguments: [] };
    case 'showLog':
      return { command: 'rlm.showLog', arguments: [] };
    case 'openSettings':
      return { command: 'workbench.action.openSettings', arguments: ['rlm.'] };
    case 'manageTrust':
      return { command: 'workbench.trust.manage', arguments: [] };
    case 'stop':
      return { command: 'rlm.stop', arguments: [] };
  }
}

/** Runs the command of a step a person picked. */
export async function runNextStep(step: NextStep, keySlot?: KeySlot): Promise<void> {
  const { command, arguments: args } = stepCommand(step, keySlot);
  await vscode.commands.executeCommand(command, ...args);
}

/** Shows `text` with the buttons of `steps` (after any `extra` buttons); returns the extra label picked, if any. */
export async function showWithSteps(severity: UserMessage['severity'], text: string, steps: readonly NextStep[], keySlot: KeySlot | undefined, extra: readonly string[] = []): Promise<string | undefined> {
  const show = severity === 'error' ? vscode.window.showErrorMessage : severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  // Every notification's text is inert: an answer, a path or a server's error may carry a command link.
  const picked = await show(noticeText(text), ...steps.map((s) => NEXT_STEP_LABELS[s]), ...extra);
  const step = steps.find((s) => NEXT_STEP_LABELS[s] === picked);
  if (step) {
    await runNextStep(step, keySlot);
    return undefined;
  }
  return picked;
}

export async function showUserMessage(message: UserMessage): Promise<void> {
  await showWithSteps(message.severity, message.text, message.steps, message.keySlot);
}

/** Logs `error` with its stack and shows it as a sentence with next steps. */
export function reportError(log: vscode.LogOutputChannel, error: unknown, context: string): void {
  const message = describeError(error);
  if (message.severity === 'error') log.error(`${context}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  else log.info(`${context}: ${message.text}`);
  void showUserMessage(message);
}
