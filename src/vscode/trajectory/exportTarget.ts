// Where an export is offered to be saved: the first workspace folder, whichever way it was asked for
// (the view's Export buttons or the "Export trajectory" command), named after the recorded file. Only
// a window with no folder falls back to where the record lives. One rule, so the view never proposes
// the extension's hidden storage while the command proposes the workspace.
import * as vscode from 'vscode';
import { exportFileName } from './exportName';

export function exportTargetUri(source: vscode.Uri | undefined, runId: string, ext: 'md' | 'ipynb', fallbackDirectory: vscode.Uri | undefined): vscode.Uri | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? (source ? vscode.Uri.joinPath(source, '..') : fallbackDirectory);
  return folder ? vscode.Uri.joinPath(folder, exportFileName(source?.path, runId, ext)) : undefined;
}
