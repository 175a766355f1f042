// Wires one webview (custom editor or live panel) to a TrajectorySession: options, HTML, messages,
// and the actions that need VS Code (export with a save dialog, clipboard).
import { isAbsolute } from 'node:path';
import { exportTargetUri } from './exportTarget';
import * as vscode from 'vscode';
import type { RunNode } from '../../core/trajectory/treeTypes';
import { toNotebook, notebookJson } from '../../core/trajectory/exportIpynb';
import { toMarkdown } from '../../core/trajectory/exportMarkdown';
import { exportToFile } from '../../core/trajectory/exportFile';
import type { ExportFormat } from '../../shared/trajectoryProtocol';
import type { RunSourceInfo } from './runProjection';
import { openRlmSetting, promptForPrice } from '../settings/priceSetting';
import { trajectoryHtml } from './trajectoryHtml';
import { TrajectorySession } from './trajectorySession';
import type { UserCellActions } from './trajectorySession';
import { openReference } from './referenceOpener';
import { webviewAssets } from '../webviews/webviewAssets';

export type ViewLog = { info(message: string): void; warn(message: string): void; error(message: string): void };

export interface SetupInput {
  extensionUri: vscode.Uri;
  panel: vscode.WebviewPanel;
  root(): RunNode;
  /** Every top-level run, when the source holds a conversation; exports include them all. */
  runs?(): RunNode[];
  info(): RunSourceInfo;
  isLive(): boolean;
  stop?(): void;
  /**
   * The run's file: where an export is suggested, what Continue replays, where references resolve.
   * A function: a live view moves from a starting question to its run, and on to follow-ups.
   */
  exportBase?(): vscode.Uri | undefined;
  /** The cell input of a live run's view; absent: a recorded file's (its cells need a replay first). */
  userCell?: UserCellActions;
  log: ViewLog;
  /** Puts a question in the chat's box (the view's "Ask again"). */
  askAgain?(question: string): Promise<void>;
}

/** "Replay it and run this cell": the run's cells again in a new REPL (nothing re-billed), then the user's. */
export function replayAndRun(record: vscode.Uri, code: string): Promise<void> {
  return Promise.resolve(vscode.commands.executeCommand('rlm.runCellInReplay', record, { code })).then(() => undefined);
}

/** A recorded file's cell input: its REPL is gone, so the run is replayed into a new one first. */
export function recordedUserCell(record: vscode.Uri | undefined): UserCellActions {
  const replayable = record?.scheme === 'file';
  return {
    state: () => ({ status: 'gone', replayable, reason: replayable ? 'This run\'s REPL has ended.' : 'This run has no recorded file to replay its REPL from.' }),
    run: async (code) => {
      if (!replayable || !record) throw new Error('This run has no recorded file to replay its REPL from.');
      await replayAndRun(record, code);
    },
    stop: () => undefined,
  };
}

export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

async function exportRun(runs: RunNode[], format: ExportFormat, base: vscode.Uri | undefined): Promise<void> {
  const run = runs[0]!;
  const ext = format === 'ipynb' ? 'ipynb' : 'md';
  const defaultUri = exportTargetUri(base, run.runId, ext, undefined);
  const target = await vscode.window.showSaveDialog({
    defaultUri,
    filters: format === 'ipynb' ? { 'Jupyter notebook': ['ipynb'] } : { Markdown: ['md'] },
    saveLabel: format === 'ipynb' ? 'Export notebook' : 'Export Markdown',
  });
  if (!target) return;
  if (target.scheme === 'file') {
    // Written in pieces: a long run is never one string in memory.
    exportToFile(runs, format === 'ipynb' ? 'ipynb' : 'md', target.fsPath);
  } else {
    const text = format === 'ipynb' ? notebookJson(toNotebook(runs)) : toMarkdown(runs);
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  }
  const open = await vscode.window.showInformationMessage(`Exported the run to ${vscode.workspace.asRelativePath(target)}.`, 'Open');
  if (open) await vscode.commands.executeCommand('vscode.open', target);
}

/**
 * The parent's file as the record names it ("as the user named it": workspace-relative or absolute).
 * The record is not trusted: only a trajectory file that exists is opened, and only in the viewer.
 */
async function openParentRun(named: string, record: vscode.Uri | undefined): Promise<void> {
  if (!/\.jsonl$/i.test(named)) throw new Error(`The earlier run "${named}" is not a trajectory file (.rlm.jsonl), so it is not opened.`);
  const bases = [...(vscode.workspace.workspaceFolders ?? []).map((f) => f.uri), ...(record ? [vscode.Uri.joinPath(record, '..')] : [])];
  const candidates = isAbsolute(named) ? [vscode.Uri.file(named)] : bases.map((base) => vscode.Uri.joinPath(base, named));
  for (const uri of candidates) {
    const found = await vscode.workspace.fs.stat(uri).then(() => true, () => false);
    if (found) {
      await vscode.commands.executeCommand('rlm.openTrajectory', uri);
      return;
    }
  }
  throw new Error(`The earlier run's file ${named} was not found (moved or deleted?).`);
}

/** Sets the panel up and returns its session; disposing the returned disposable detaches it. */
export function setUpTrajectoryWebview(input: SetupInput): { session: TrajectorySession; disposable: vscode.Disposable } {
  const webview = input.panel.webview;
  const base = (): vscode.Uri | undefined => input.exportBase?.();
  const fileBase = (): vscode.Uri | undefined => (base()?.scheme === 'file' ? base() : undefined);
  webview.options = webviewOptions(input.extensionUri);
  const assets = webviewAssets(input.extensionUri.fsPath);
  const asset = (...parts: string[]): string => webview.asWebviewUri(vscode.Uri.joinPath(input.extensionUri, ...parts)).toString();
  const session = new TrajectorySession({
    post: (message) => void webview.postMessage(message),
    root: input.root,
    ...(input.runs && { runs: input.runs }),
    info: input.info,
    isLive: input.isLive,
    log: (message) => input.log.warn(message),
    actions: {
      stop: input.stop,
      exportAs: (format) => exportRun(input.runs?.() ?? [input.root()], format, base()),
      copyText: async (text) => {
        await vscode.env.clipboard.writeText(text);
        vscode.window.setStatusBarMessage('RLM: copied to the clipboard', 2000);
      },
      ...(input.askAgain ? { askAgain: input.askAgain } : {}),
      setPrice: async (models, model) => void (await promptForPrice(models, model)),
      openSetting: openRlmSetting,
      continueRun: async (fork: boolean) => {
        const file = fileBase();
        if (!file) throw new Error('This run has no recorded file to continue from.');
        await vscode.commands.executeCommand(fork ? 'rlm.forkRun' : 'rlm.continueRun', file);
      },
      openParent: (named) => openParentRun(named, fileBase()),
      openReference: (reference) => openReference(reference, fileBase()?.fsPath),
      userCell: input.userCell ?? recordedUserCell(base()),
    },
  });
  webview.html = trajectoryHtml({
    cspSource: webview.cspSource,
    scriptUri: asset('dist', 'webview', 'trajectory.js'),
    styleUri: asset('media', 'trajectory.css'),
    codiconUri: asset('dist', 'webview', 'codicon.css'),
    scriptText: assets.text('dist', 'webview', 'trajectory.js'),
    styleText: assets.text('media', 'trajectory.css'),
    title: input.panel.title,
    initial: session.embeddedState(),
  });
  const disposable = webview.onDidReceiveMessage((message: unknown) => void session.handle(message));
  return { session, disposable };
}
