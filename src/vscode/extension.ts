// Extension entry point. Activation registers contributions only; everything heavy loads on first use.
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand('rlm.askAboutFile', () => {
      void vscode.window.showInformationMessage('RLM is being set up.');
    }),
  );
}

export function deactivate(): void {}
