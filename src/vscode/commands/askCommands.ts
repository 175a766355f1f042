// "Ask RLM about this file", "Ask about the workspace" and "Ask about folder...".
import * as vscode from 'vscode';
import { gatherWorkspace } from '../context/gatherWorkspace';
import type { GatherScope } from '../context/gatherWorkspace';
import { activeFileUri } from '../context/activeTarget';
import { fileContext } from '../context/fileTarget';
import { explorerSelection, selectedFilesContext } from '../context/selectedFiles';
import { formatBytes } from '../../shared/text/format';
import { emptyTargetMessage, summarizeTarget } from '../context/targetSummary';
import { NoModelConfiguredError, TargetRefusedError } from '../errors/extensionErrors';
import type { RlmServices } from '../services/rlmServices';
import type { ActiveRun } from '../run/activeRun';
import type { GatheredContext } from '../run/runLauncher';
import { readSettings } from '../settings/readSettings';
import type { RlmSettings } from '../settings/rlmSettings';
import { isModelConfigured } from '../settings/rlmSettings';
import { askQuestion, firstWorkspaceFolders, registerSafeCommand, requireTrust, runAndFollow } from './commandSupport';
import { targetText } from '../trajectory/runHeaderProjection';

/** Optional arguments of the ask commands, for keybindings and scripts: skips the question prompt. */
export interface AskCommandOptions {
  question?: string;
}

function optionsArg(value: unknown): AskCommandOptions {
  if (typeof value !== 'object' || value === null) return {};
  const question = (value as { question?: unknown }).question;
  return typeof question === 'string' && question.trim() ? { question: question.trim() } : {};
}

/** The settings of a run about to be asked; starts the REPL now, so it loads while the user types. */
function configuredSettings(services: RlmServices): RlmSettings {
  const settings = readSettings();
  if (!isModelConfigured(settings)) throw new NoModelConfiguredError();
  services.prewarmRepl();
  return settings;
}

async function pickFileScope(uri: vscode.Uri): Promise<vscode.Selection | undefined | 'cancel'> {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.document.uri.toString() !== uri.toString() || editor.selection.isEmpty) return undefined;
  const lines = editor.selection.end.line - editor.selection.start.line + 1;
  const picked = await vscode.window.showQuickPick(
    [
      { label: 'Selection only', description: `${lines} line${lines === 1 ? '' : 's'}`, scope: 'selection' as const },
      { label: 'Whole file', description: vscode.workspace.asRelativePath(uri), scope: 'file' as const },
    ],
    { title: 'Ask RLM about...', placeHolder: 'There is a selection: ask about it, or the whole file?' },
  );
  if (!picked) return 'cancel';
  return picked.scope === 'selection' ? editor.selection : undefined;
}

export async function askAboutFile(services: RlmServices, arg?: unknown, options: AskCommandOptions = {}, selected?: unknown): Promise<ActiveRun | undefined> {
  requireTrust();
  const settings = configuredSettings(services);
  // Menus pass the file (the explorer also every selected one); the palette and the keybinding mean
  // the active tab, even one whose file is too large for the editor to display (where RLM is most useful).
  const uri = arg instanceof vscode.Uri ? arg : activeFileUri();
  if (!uri) throw new TargetRefusedError('no file', 'no-editor', 'Open a file in an editor tab, or right-click files in the explorer, to ask RLM about them.');
  const uris = explorerSelection(uri, selected);
  const selection = options.question || uris.length > 1 ? undefined : await pickFileScope(uri);
  if (selection === 'cancel') return undefined;
  const ctx = uris.length > 1 ? await selectedFilesContext(uris, settings) : await fileContext(uri, settings, selection);
  const question = options.question ?? (await askQuestion(ctx.label));
  if (!question) return undefined;
  return runAndFollow(
    services,
    { contextKey: ctx.contextKey, question, settings, gather: async () => ({ source: ctx.source, target: ctx.target }) },
    `RLM: ${question}`,
    targetText(ctx.target),
  );
}

/** Whether to ask "Bind N files?": a conversation asks once per target, then remembers the answer. */
export interface ConfirmationMemory {
  alreadyConfirmed: boolean;
  confirmed(): void;
}

/** Gathers with a cancellable progress notification, then shows what will be bound and asks to go on. */
export async function gatherWithConfirmation(scopes: GatherScope[], where: string, settings: RlmSettings, signal: AbortSignal, memory?: ConfirmationMemory): Promise<GatheredContext | undefined> {
  const outcome = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `RLM: gathering ${where}`, cancellable: true },
    async (progress, token) => {
      // Cancelled from the notification or by the run's own signal (Stop while gathering).
      const linked = new vscode.CancellationTokenSource();
      const onCancel = token.onCancellationRequested(() => linked.cancel());
      const onAbort = (): void => linked.cancel();
      signal.addEventListener('abort', onAbort);
      try {
        return await gatherWorkspace(scopes, settings, { report: (c) => progress.report({ message: `${c.included} files (${formatBytes(c.bytes)}), ${c.skipped} skipped, of ${c.found} found` }) }, linked.token);
      } finally {
        signal.removeEventListener('abort', onAbort);
        onCancel.dispose();
        linked.dispose();
      }
    },
  );
  if (outcome.files.length === 0 && !outcome.plan?.files.length) throw new TargetRefusedError(where, 'empty', emptyTargetMessage(where, outcome.skipCounts));
  if (settings.confirmBeforeSending && !memory?.alreadyConfirmed) {
    const summary = summarizeTarget(outcome.target, outcome.skipCounts, outcome.ignoredByGitignore);
    const details = outcome.plan
      ? [`Over rlm.contextLimitMb (${formatBytes(settings.contextLimitBytes)}): files are read only when the model uses them, and search runs in VS Code.`, ...summary.details]
      : summary.details;
    const go = await vscode.window.showInformationMessage(summary.headline, { modal: true, detail: details.join('\n') }, 'Ask');
    if (go !== 'Ask') return undefined;
    memory?.confirmed();
  }
  if (outcome.plan) return { source: { kind: 'plan', plan: outcome.plan }, target: outcome.target };
  return { source: { kind: 'files', files: outcome.files, ...(outcome.format ? { format: outcome.format } : {}) }, target: outcome.target };
}

export async function askAboutWorkspace(services: RlmServices, options: AskCommandOptions = {}): Promise<ActiveRun | undefined> {
  requireTrust();
  const settings = configuredSettings(services);
  const folders = firstWorkspaceFolders();
  if (folders.length === 0) throw new TargetRefusedError('workspace', 'no-workspace', 'Open a folder or workspace first: there is nothing to ask about.');
  const question = options.question ?? (await askQuestion('the workspace'));
  if (!question) return undefined;
  return runAndFollow(
    services,
    { contextKey: 'workspace', question, settings, gather: (signal) => gatherWithConfirmation(folders.map((folder) => ({ folder })), 'the workspace', settings, signal) },
    `RLM: ${question}`,
    'the workspace',
  );
}

/** The workspace folder and sub-path of a folder URI; refuses folders outside the workspace. */
export function folderScope(uri: vscode.Uri): GatherScope & { label: string } {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  if (!folder) throw new TargetRefusedError(uri.fsPath, 'no-workspace', `${uri.fsPath} is outside the open workspace. Add it to the workspace first.`);
  const rel = vscode.workspace.asRelativePath(uri, false);
  const subPath = rel === uri.fsPath || rel === folder.uri.fsPath ? '' : rel;
  return { folder, subPath, label: subPath ? `${subPath}/` : folder.name };
}

export async function pickFolder(): Promise<vscode.Uri | undefined> {
  const picked = await vscode.window.showOpenDialog({
    canSelectFolders: true,
    canSelectFiles: false,
    canSelectMany: false,
    openLabel: 'Ask about this folder',
    ...(firstWorkspaceFolders()[0] ? { defaultUri: firstWorkspaceFolders()[0]!.uri } : {}),
  });
  return picked?.[0];
}

export async function askAboutFolder(services: RlmServices, arg?: unknown, options: AskCommandOptions = {}): Promise<ActiveRun | undefined> {
  requireTrust();
  const settings = configuredSettings(services);
  const uri = arg instanceof vscode.Uri ? arg : await pickFolder();
  if (!uri) return undefined;
  const scope = folderScope(uri);
  const question = options.question ?? (await askQuestion(scope.label));
  if (!question) return undefined;
  return runAndFollow(
    services,
    { contextKey: `folder:${uri.toString()}`, question, settings, gather: (signal) => gatherWithConfirmation([scope], scope.label, settings, signal) },
    `RLM: ${question}`,
    `folder ${scope.label}`,
  );
}

export function registerAskCommands(services: RlmServices): vscode.Disposable[] {
  return [
    // Explorer and editor menus pass (uri, [uris]); scripts and tests may pass (uri, { question })
    // or (uri, [uris], { question }).
    registerSafeCommand(services, 'rlm.askAboutFile', (arg, second, third) => askAboutFile(services, arg, optionsArg(Array.isArray(second) ? third : second), second)),
    registerSafeCommand(services, 'rlm.askAboutWorkspace', (opts) => askAboutWorkspace(services, optionsArg(opts))),
    registerSafeCommand(services, 'rlm.askAboutFolder', (arg, opts) => askAboutFolder(services, arg, optionsArg(opts))),
  ];
}
