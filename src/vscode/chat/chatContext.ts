// Turns an `@rlm` request's target into the run's context: the active editor or tab (`/file`, also
// when VS Code shows its placeholder for a large or binary file instead of an editor), a folder
// (`/folder <path>`), the workspace, or the chat references (`#file`, `#selection`, a folder, text).
import * as vscode from 'vscode';
import type { ContextFile } from '../../core/context/contextTypes';
import { folderScope, gatherWithConfirmation } from '../commands/askCommands';
import { activeFileUri } from '../context/activeTarget';
import { fileContext } from '../context/fileTarget';
import { TargetRefusedError } from '../errors/extensionErrors';
import type { GatheredContext } from '../run/runLauncher';
import type { RlmSettings } from '../settings/rlmSettings';
import type { ChatTargetPlan } from './chatRequestPlan';
import { matchTypedFile, normalizeTypedName, typedFileProblem } from './typedFileMatch';

interface ChatContextRequest {
  /** The question with typed names replaced by the files they resolved to, when that changed it. */
  question?: string;
  contextKey: string;
  /** Names the target in the progress line. */
  label: string;
  gather: (signal: AbortSignal) => Promise<GatheredContext | undefined>;
}

function workspaceFolders(): readonly vscode.WorkspaceFolder[] {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length === 0) throw new TargetRefusedError('workspace', 'no-workspace', 'Open a folder or workspace first: there is nothing to ask about.');
  return folders;
}

/** `/folder src/core`: relative to the first workspace folder (or to the folder it names, in a multi-root workspace). */
async function folderUri(path: string): Promise<vscode.Uri> {
  const folders = workspaceFolders();
  const named = folders.find((f) => path === f.name || path.startsWith(`${f.name}/`));
  const uri = path.startsWith('/') ? vscode.Uri.file(path) : named && folders.length > 1 ? vscode.Uri.joinPath(named.uri, path.slice(named.name.length + 1)) : vscode.Uri.joinPath(folders[0]!.uri, path);
  let stat: vscode.FileStat;
  try {
    stat = await vscode.workspace.fs.stat(uri);
  } catch {
    throw new TargetRefusedError(path, 'unreadable', `There is no folder "${path}" in the workspace. Give a path relative to the workspace folder, e.g. /folder src.`);
  }
  if (!(stat.type & vscode.FileType.Directory)) throw new TargetRefusedError(path, 'unreadable', `"${path}" is a file, not a folder: ask with /file, or reference it with #file.`);
  return uri;
}

function referenceUri(value: unknown): { uri: vscode.Uri; range?: vscode.Range } | undefined {
  if (value instanceof vscode.Uri) return { uri: value };
  if (value instanceof vscode.Location) return { uri: value.uri, range: value.range };
  return undefined;
}

/** A reference's short name for the question text. */
export function referenceLabel(reference: vscode.ChatPromptReference): string {
  const target = referenceUri(reference.value);
  if (target) return vscode.workspace.asRelativePath(target.uri, false);
  return reference.id.replace(/^vscode\./, '');
}

async function referencesContext(references: readonly vscode.ChatPromptReference[], settings: RlmSettings, signal: AbortSignal): Promise<GatheredContext | undefined> {
  const files: ContextFile[] = [];
  const folders: vscode.Uri[] = [];
  for (const [index, reference] of references.entries()) {
    const target = referenceUri(reference.value);
    if (!target) {
      if (typeof reference.value === 'string' && reference.value !== '') files.push({ path: `${reference.id || `reference ${index + 1}`}.txt`, content: reference.value });
      continue;
    }
    const stat = await vscode.workspace.fs.stat(target.uri).then(
      (s) => s,
      () => undefined,
    );
    if (stat && stat.type & vscode.FileType.Directory) {
      folders.push(target.uri);
      continue;
    }
    const range = target.range && !target.range.isEmpty ? new vscode.Selection(target.range.start, target.range.end) : undefined;
    const ctx = await fileContext(target.uri, settings, range);
    if (ctx.source.kind === 'text') files.push({ path: ctx.label, content: ctx.source.text });
  }
  if (folders.length > 0) {
    const scopes = folders.map((uri) => folderScope(uri));
    const gathered = await gatherWithConfirmation(scopes, scopes.map((s) => s.label).join(', '), settings, signal);
    if (!gathered) return undefined;
    if (gathered.source.kind === 'plan') {
      // Over rlm.contextLimitMb: the folders are bound lazily, which they can only be on their own.
      if (files.length === 0) return gathered;
      throw new TargetRefusedError('the references', 'too-large', `${scopes.map((s) => s.label).join(', ')} holds more than the context limit (rlm.contextLimitMb), so it is read lazily, and cannot be asked about together with other references. Ask about the folder alone (/folder ${scopes[0]!.label.replace(/\/$/, '')}), or reference fewer files.`);
    }
    if (gathered.source.kind === 'files') files.push(...gathered.source.files);
  }
  if (files.length === 0) throw new TargetRefusedError('the references', 'empty', 'None of the chat references is a file, folder or text RLM can read. Reference a file with #file, or ask with /file or /folder.');
  const totalBytes = files.reduce((sum, f) => sum + (typeof f.content === 'string' ? Buffer.byteLength(f.content, 'utf8') : f.content.byteLength), 0);
  if (totalBytes > settings.contextLimitBytes) {
    throw new TargetRefusedError('the references', 'too-large', `The referenced files hold more than the context limit (rlm.contextLimitMb). Reference fewer files.`);
  }
  const only = files.length === 1 ? files[0] : undefined;
  const paths = files.map((f) => f.path);
  return {
    source: only ? { kind: 'text', text: only.content, label: only.path } : { kind: 'files', files },
    target: { kind: only ? 'file' : 'files', paths, totalBytes, fileCount: files.length, skipped: [] },
  };
}

/** Glob metacharacters in a file name, escaped for findFiles. */
function globLiteral(text: string): string {
  return text.replace(/[[\]{}*?!]/g, (c) => `[${c}]`);
}

/** The workspace file a typed `#file:NAME` names; a TargetRefusedError saying which match, or that none does. */
async function typedFileUri(name: string): Promise<vscode.Uri> {
  workspaceFolders();
  const base = normalizeTypedName(name).split('/').pop() ?? '';
  const found = base === '' ? [] : await vscode.workspace.findFiles(`**/${globLiteral(base)}`, undefined, 200);
  // Case-insensitive file systems and typos in case: try the name as typed in lower case too.
  const more = found.length === 0 && base !== base.toLowerCase() ? await vscode.workspace.findFiles(`**/${globLiteral(base.toLowerCase())}`, undefined, 200) : [];
  const byPath = new Map([...found, ...more].map((uri) => [vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders ?? []).length > 1), uri]));
  const match = matchTypedFile(name, [...byPath.keys()]);
  if (match.kind !== 'one') throw new TargetRefusedError(name, 'unreadable', typedFileProblem(name, match));
  return byPath.get(match.path)!;
}

export async function chatContextFor(
  plan: Exclude<ChatTargetPlan, { kind: 'usage' }>,
  references: readonly vscode.ChatPromptReference[],
  settings: RlmSettings,
  /** The file the chat attached as "Current file": what /file means when no tab shows a file. */
  currentFile?: vscode.Uri,
): Promise<ChatContextRequest> {
  switch (plan.kind) {
    case 'typedFiles': {
      const uris = await Promise.all(plan.names.map(typedFileUri));
      let question = plan.question;
      for (const [i, name] of plan.names.entries()) {
        const path = vscode.workspace.asRelativePath(uris[i]!, false);
        if (path !== name) question = question.split(name).join(path);
      }
      // Resolved, they are references like the ones completion makes.
      const typed = uris.map((uri) => ({ id: 'vscode.file', name: uri.fsPath, value: uri }) as vscode.ChatPromptReference);
      const label = uris.map((u) => vscode.workspace.asRelativePath(u, false)).join(', ');
      return { question, contextKey: `refs:${uris.map((u) => u.toString()).join('|')}`, label, gather: (signal) => referencesContext(typed, settings, signal) };
    }
    case 'file': {
      const uri = activeFileUri(currentFile);
      if (!uri) throw new TargetRefusedError('no file', 'no-editor', 'Open a file in the editor, then ask with @rlm /file (or reference the file with #file).');
      const label = vscode.workspace.asRelativePath(uri, false);
      return { contextKey: `file:${uri.toString()}`, label, gather: async () => fileContext(uri, settings) };
    }
    case 'folder': {
      const scope = folderScope(await folderUri(plan.path));
      const key = scope.subPath ? `${scope.folder.uri.toString()}/${scope.subPath}` : scope.folder.uri.toString();
      return { contextKey: `folder:${key}`, label: scope.label, gather: (signal) => gatherWithConfirmation([scope], scope.label, settings, signal) };
    }
    case 'references': {
      const key = references.map((r) => (referenceUri(r.value)?.uri.toString() ?? r.id)).join('|');
      return { contextKey: `refs:${key}`, label: references.map(referenceLabel).join(', '), gather: (signal) => referencesContext(references, settings, signal) };
    }
    case 'workspace': {
      const folders = workspaceFolders();
      return { contextKey: 'workspace', label: 'the workspace', gather: (signal) => gatherWithConfirmation(folders.map((folder) => ({ folder })), 'the workspace', settings, signal) };
    }
  }
}

/** The file a path of the run's context names, for anchors in the answer. */
export function uriForContextPath(path: string): vscode.Uri | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const clean = path.replace(/:\d+-\d+$/, '');
  if (folders.length === 1) return vscode.Uri.joinPath(folders[0]!.uri, clean);
  const named = folders.find((f) => clean.startsWith(`${f.name}/`));
  return named ? vscode.Uri.joinPath(named.uri, clean.slice(named.name.length + 1)) : undefined;
}
