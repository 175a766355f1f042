// Registers the trajectory view: a read-only custom editor for recorded runs (`*.rlm.jsonl`, and
// the reference `rlm` log format through "Open With..."), and live panels for running questions.
// The extension calls this once during activation and keeps the returned handle.
import * as vscode from 'vscode';
import type { LiveRun, PendingView, StartingRun } from '../run/liveRunTypes';
import { TrajectoryEditorProvider, TRAJECTORY_VIEW_TYPE, TRAJECTORY_ANY_VIEW_TYPE } from './trajectoryEditorProvider';
import { LivePanels, LIVE_VIEW_TYPE } from './livePanels';
import { SLICE_SCHEME, sliceProvider } from './referenceOpener';
import { DECOMPRESSED_SCHEME, PDF_PAGE_SCHEME, decompressedProvider, pdfPageProvider } from './derivedTextViews';

export type { LiveRun } from '../run/liveRunTypes';

/**
 * Set once a recorded run has been shown in this window, whatever route opened it (the command,
 * History, the explorer, a notification's button, the chat): the Getting Started walkthrough's
 * "Open a recorded run" step ticks on it (package.json, completionEvents).
 */
const OPENED_RECORDED_RUN_CONTEXT = 'rlm.openedRecordedRun';

export interface TrajectoryViewDeps {
  /** Where view problems are logged (the extension's LogOutputChannel). */
  log?: Pick<vscode.LogOutputChannel, 'info' | 'warn' | 'error'>;
  /** Puts a question in the chat's box, for a view's "Ask again". */
  askAgain?(question: string): Promise<void>;
  /** A recorded run was opened: someone exploring runs is likely to ask next (starts a spare REPL). */
  onOpened?: () => void;
}

export interface TrajectoryViews {
  /**
   * Opens a recorded run (.rlm.jsonl or a reference-format .jsonl) in a view titled by its question,
   * or brings its open view to the front. (A file the user opens from the explorer or Quick Open gets
   * the trajectory editor instead: it is a file they opened.)
   */
  openFile(uri: vscode.Uri): Promise<void>;
  /**
   * Opens (or reveals) a live panel for a running question. The panel follows the run to its end and
   * keeps showing the final state; its Stop button calls `run.stop()`.
   */
  openLive(run: LiveRun): void;
  /** Opens the view of a question as it is asked, before its run exists; the run is attached to it later. */
  openStarting(starting: StartingRun): PendingView;
  /** The trajectory file of the live panel last in front, if it is still open. */
  activeLivePath(): string | undefined;
}

export function registerTrajectoryViews(context: vscode.ExtensionContext, deps: TrajectoryViewDeps = {}): TrajectoryViews {
  const log = deps.log ?? { info: () => undefined, warn: () => undefined, error: () => undefined };
  const editor = new TrajectoryEditorProvider(context.extensionUri, log, deps.askAgain);
  const provider: vscode.CustomReadonlyEditorProvider = {
    openCustomDocument: (uri) => editor.openCustomDocument(uri),
    resolveCustomEditor: (document, panel) => {
      deps.onOpened?.();
      void vscode.commands.executeCommand('setContext', OPENED_RECORDED_RUN_CONTEXT, true);
      return editor.resolveCustomEditor(document as Parameters<TrajectoryEditorProvider['resolveCustomEditor']>[0], panel);
    },
  };
  const live = new LivePanels(context.extensionUri, log, deps.askAgain);
  const options = { supportsMultipleEditorsPerDocument: true, webviewOptions: { retainContextWhenHidden: false } };
  context.subscriptions.push(
    vscode.window.registerCustomEditorProvider(TRAJECTORY_VIEW_TYPE, provider, options),
    vscode.window.registerCustomEditorProvider(TRAJECTORY_ANY_VIEW_TYPE, provider, options),
    vscode.window.registerWebviewPanelSerializer(LIVE_VIEW_TYPE, live),
    vscode.workspace.registerTextDocumentContentProvider(SLICE_SCHEME, sliceProvider),
    vscode.workspace.registerTextDocumentContentProvider(PDF_PAGE_SCHEME, pdfPageProvider),
    vscode.workspace.registerTextDocumentContentProvider(DECOMPRESSED_SCHEME, decompressedProvider),
    live,
  );
  return {
    async openFile(uri) {
      // Not the custom editor: its tab would be named after the file (a timestamp deep in storage).
      await live.openRecorded(uri);
      deps.onOpened?.();
      void vscode.commands.executeCommand('setContext', OPENED_RECORDED_RUN_CONTEXT, true);
    },
    openLive(run) {
      live.open(run);
    },
    openStarting: (starting) => live.openStarting(starting),
    activeLivePath: () => live.lastActivePath,
  };
}
