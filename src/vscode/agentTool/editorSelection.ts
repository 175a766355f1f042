// The selection an agent asks about (`selection: true`): the lines selected in the active text editor,
// read from the editor (unsaved edits included) and bound at their own line numbers (agentSelection.ts).
// While the user types in the chat the chat has the focus; VS Code still reports the last text editor
// as active, and when it reports none, the one visible editor holding a selection is taken.
import * as vscode from 'vscode';
import { AgentAskError } from '../../core/agentAsk/agentAskErrors';
import { alignedSelectionText, describeSelection, selectedLines, selectionLabel } from '../../core/agentAsk/agentSelection';
import type { ContextSource, TargetDescription } from '../../core/context/contextTypes';
import { formatBytes } from '../../shared/text/format';

export interface AgentSelectionInput {
  source: ContextSource;
  target: TargetDescription;
  /** "the 40 selected lines of src/x.ts (lines 40-79)", for the confirmation. */
  description: string;
  /** The selected text's size (the bound text also holds the empty lines before it). */
  selectedBytes: number;
}

function selectingEditor(): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  if (active) return active;
  const withSelection = vscode.window.visibleTextEditors.filter((e) => e.selections.some((s) => !s.isEmpty));
  return withSelection.length === 1 ? withSelection[0] : undefined;
}

/** The selection of the active editor; an AgentAskError saying what to do when there is none. */
export function readAgentSelection(maxBytes: number): AgentSelectionInput {
  const editor = selectingEditor();
  if (!editor) {
    throw new AgentAskError('no-selection', 'No text editor is open in VS Code, so there is no selection to read: ask the user to select the lines they mean in an editor, or pass the file\'s path in "paths".');
  }
  const { document } = editor;
  const path = vscode.workspace.asRelativePath(document.uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  const lines = selectedLines(editor.selections);
  if (lines.length === 0) {
    throw new AgentAskError('no-selection', `Nothing is selected in ${path} (the active editor): ask the user to select the lines they mean, or pass "${path}" in "paths" to ask about the whole file.`, path);
  }
  const text = alignedSelectionText(lines, (line) => document.lineAt(line - 1).text);
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes) {
    throw new AgentAskError('bad-input', `The selection in ${path} reaches ${formatBytes(bytes)}, over the context limit of ${formatBytes(maxBytes)} (rlm.contextLimitMb): pass "${path}" in "paths" instead, which is read lazily when large.`, path);
  }
  const selectedBytes = lines.reduce((n, s) => {
    for (let line = s.startLine; line <= s.endLine; line++) n += Buffer.byteLength(document.lineAt(line - 1).text, 'utf8') + 1;
    return n;
  }, 0);
  const label = selectionLabel(path, lines);
  return {
    // Labelled with the file's own path: the answer's `path:line` citations name the file, at its lines.
    source: { kind: 'text', text, label: path },
    target: { kind: 'selection', paths: [label], totalBytes: selectedBytes, fileCount: 1, skipped: [] },
    description: describeSelection(path, lines),
    selectedBytes,
  };
}
