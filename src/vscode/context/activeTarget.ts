// Which file "this file" means. The active tab decides, whatever editor shows it: a text editor, the
// placeholder VS Code shows for a file too large to display (where window.activeTextEditor is
// undefined), a binary or custom editor, a notebook, or the changed side of a diff.
import * as vscode from 'vscode';

/** The resource the active tab shows, or undefined for tabs without one (webviews, terminals, settings UI). */
function activeTabUri(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputNotebook) return input.uri;
  if (input instanceof vscode.TabInputTextDiff || input instanceof vscode.TabInputNotebookDiff) return input.modified;
  return undefined;
}

/** Unsaved editors, and anything a file system provider serves (local files, remote and virtual ones). */
function isAskable(uri: vscode.Uri): boolean {
  return uri.scheme === 'untitled' || vscode.workspace.fs.isWritableFileSystem(uri.scheme) !== undefined;
}

/** The file a question without an explicit target is about: the active tab's, else the text editor's. */
export function activeFileUri(): vscode.Uri | undefined {
  const fromTab = activeTabUri();
  if (fromTab && isAskable(fromTab)) return fromTab;
  const fromEditor = vscode.window.activeTextEditor?.document.uri;
  return fromEditor && isAskable(fromEditor) ? fromEditor : undefined;
}

/** Fires whenever the answer of activeFileUri() may have changed. */
export function onDidChangeActiveFile(listener: () => void): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.window.tabGroups.onDidChangeTabs(listener),
    vscode.window.tabGroups.onDidChangeTabGroups(listener),
    vscode.window.onDidChangeActiveTextEditor(listener),
  );
}
