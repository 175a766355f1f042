// Which file "this file" means. The active tab decides, whatever editor shows it: a text editor, the
// placeholder VS Code shows for a file too large to display (where window.activeTextEditor is
// undefined), a binary or custom editor, a notebook, or the changed side of a diff. When the active tab
// shows no file (an RLM view just opened by a run, a terminal, the settings UI), "this file" is still
// the one the person was looking at: the last tab with a file, while it stays open.
import * as vscode from 'vscode';

/** The resource the active tab shows, or undefined for tabs without one (webviews, terminals, settings UI). */
function activeTabUri(): vscode.Uri | undefined {
  return tabUri(vscode.window.tabGroups.activeTabGroup.activeTab?.input);
}

/** Unsaved editors, and anything a file system provider serves (local files, remote and virtual ones). */
function isAskable(uri: vscode.Uri): boolean {
  return uri.scheme === 'untitled' || vscode.workspace.fs.isWritableFileSystem(uri.scheme) !== undefined;
}

/** The last file an active tab or editor showed (see trackActiveFile). */
let lastFile: vscode.Uri | undefined;

/** The file shown now by the active tab, else by the active text editor. */
function shownFile(): vscode.Uri | undefined {
  const fromTab = activeTabUri();
  if (fromTab && isAskable(fromTab)) return fromTab;
  // In a notebook the active text editor is a cell's (not a file): the notebook is what is shown.
  const fromNotebook = vscode.window.activeNotebookEditor?.notebook.uri;
  if (fromNotebook && isAskable(fromNotebook)) return fromNotebook;
  const fromEditor = vscode.window.activeTextEditor?.document.uri;
  return fromEditor && isAskable(fromEditor) ? fromEditor : undefined;
}

/** True while some tab, in any group, still shows `uri`. */
function isOpenInTab(uri: vscode.Uri): boolean {
  const key = uri.toString();
  return vscode.window.tabGroups.all.some((group) => group.tabs.some((tab) => tabUri(tab.input)?.toString() === key));
}

function tabUri(input: unknown): vscode.Uri | undefined {
  // RLM's own views of a recorded run show a file too, but are never what "this file" means: a
  // question asked right after opening a run's trajectory is about the file the person was reading.
  if (input instanceof vscode.TabInputCustom && input.viewType.startsWith('rlm.')) return undefined;
  if (input instanceof vscode.TabInputText || input instanceof vscode.TabInputCustom || input instanceof vscode.TabInputNotebook) return input.uri;
  if (input instanceof vscode.TabInputTextDiff || input instanceof vscode.TabInputNotebookDiff) return input.modified;
  return undefined;
}

/** Remembers the last file shown, so a question asked from a view or the chat still means it. Call once at activation. */
export function trackActiveFile(): vscode.Disposable {
  const note = (): void => {
    const uri = shownFile();
    if (uri) lastFile = uri;
  };
  note();
  return onDidChangeActiveFile(note);
}

/**
 * The file a question without an explicit target is about: the active tab's, else the text editor's,
 * else (the active tab shows none) the last one shown that is still open, else `hint` (the file the
 * chat attached as "Current file"), else the first visible text editor's.
 */
export function activeFileUri(hint?: vscode.Uri): vscode.Uri | undefined {
  const shown = shownFile();
  if (shown) return shown;
  if (lastFile && isOpenInTab(lastFile)) return lastFile;
  if (hint && isAskable(hint)) return hint;
  return vscode.window.visibleTextEditors.map((e) => e.document.uri).find(isAskable);
}

/** Fires whenever the answer of activeFileUri() may have changed. */
export function onDidChangeActiveFile(listener: () => void): vscode.Disposable {
  return vscode.Disposable.from(
    vscode.window.tabGroups.onDidChangeTabs(listener),
    vscode.window.tabGroups.onDidChangeTabGroups(listener),
    vscode.window.onDidChangeActiveTextEditor(listener),
    vscode.window.onDidChangeActiveNotebookEditor(listener),
  );
}
