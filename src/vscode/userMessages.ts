// Shows a UserMessage with its next steps as buttons, and runs the chosen step's command. Details
// of the underlying error go to the log, never into the notification.
import * as vscode from 'vscode';
import { describeError } from './errors/describeError';
import type { NextStep, UserMessage } from './errors/describeError';

const STEP_BUTTONS: Record<NextStep, { label: string; run: () => Thenable<unknown> }> = {
  setApiKey: { label: 'Set API key...', run: () => vscode.commands.executeCommand('rlm.setApiKey') },
  configureModels: { label: 'Configure models...', run: () => vscode.commands.executeCommand('rlm.configureModels') },
  testConnection: { label: 'Test connection', run: () => vscode.commands.executeCommand('rlm.testConnection') },
  showLog: { label: 'Show log', run: () => vscode.commands.executeCommand('rlm.showLog') },
  openSettings: { label: 'Open settings', run: () => vscode.commands.executeCommand('workbench.action.openSettings', 'rlm.') },
  manageTrust: { label: 'Manage Workspace Trust', run: () => vscode.commands.executeCommand('workbench.trust.manage') },
  stop: { label: 'Stop', run: () => vscode.commands.executeCommand('rlm.stop') },
};

export async function showUserMessage(message: UserMessage): Promise<void> {
  const labels = message.steps.map((s) => STEP_BUTTONS[s].label);
  const show =
    message.severity === 'error' ? vscode.window.showErrorMessage : message.severity === 'warning' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  const picked = await show(message.text, ...labels);
  const step = message.steps.find((s) => STEP_BUTTONS[s].label === picked);
  if (step) await STEP_BUTTONS[step].run();
}

/** Logs `error` with its stack and shows it as a sentence with next steps. */
export function reportError(log: vscode.LogOutputChannel, error: unknown, context: string): void {
  const message = describeError(error);
  if (message.severity === 'error') log.error(`${context}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  else log.info(`${context}: ${message.text}`);
  void showUserMessage(message);
}
