// The read-only custom editor for recorded runs. The document reads its file progressively: the view
// opens once the first turns are in and gets the rest as updates, so a large file shows at once.
// Each editor on a document gets its own webview session. Reference-format logs open through the
// same provider (registered a second time with "option" priority for *.jsonl), detected by content.
import * as vscode from 'vscode';
import { FileLoad } from './fileLoad';
import { setUpTrajectoryWebview, type ViewLog } from './webviewSetup';
import { viewTitle } from './viewTitle';

export const TRAJECTORY_VIEW_TYPE = 'rlm.trajectory';
export const TRAJECTORY_ANY_VIEW_TYPE = 'rlm.trajectoryAnyJsonl';

export class TrajectoryDocument implements vscode.CustomDocument {
  constructor(
    readonly uri: vscode.Uri,
    readonly load: FileLoad,
  ) {}
  dispose(): void {}
}

export class TrajectoryEditorProvider implements vscode.CustomReadonlyEditorProvider<TrajectoryDocument> {
  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: ViewLog,
    private readonly askAgain?: (question: string) => Promise<void>,
  ) {}

  async openCustomDocument(uri: vscode.Uri): Promise<TrajectoryDocument> {
    if (uri.scheme !== 'file') {
      throw new Error(`RLM can only open trajectories from local files; ${uri.toString()} is a ${uri.scheme} resource. Save it to disk first.`);
    }
    const started = Date.now();
    const load = new FileLoad(uri.fsPath, { source: vscode.workspace.asRelativePath(uri) });
    await load.firstScreen;
    this.log.info(`trajectory ${uri.fsPath}: first turns shown after ${Date.now() - started} ms`);
    load.done.then(
      () => this.log.info(`trajectory ${uri.fsPath}: read in ${Date.now() - started} ms, ${load.info().problems.count} problems`),
      (error: unknown) => this.log.error(`trajectory ${uri.fsPath}: reading stopped: ${String(error)}`),
    );
    return new TrajectoryDocument(uri, load);
  }

  resolveCustomEditor(document: TrajectoryDocument, panel: vscode.WebviewPanel): void {
    const { load } = document;
    // The question is the tab's title (the file name is in its tooltip).
    if (load.root().question) panel.title = viewTitle(load.root());
    const { session, disposable } = setUpTrajectoryWebview({
      extensionUri: this.extensionUri,
      panel,
      root: () => load.root(),
      runs: () => load.runs(),
      info: () => load.info(),
      isLive: () => false,
      exportBase: () => document.uri,
      log: this.log,
      ...(this.askAgain ? { askAgain: this.askAgain } : {}),
    });
    const unsubscribe = load.onChange((changes) => session.pushChanges(changes));
    load.done.catch((error: unknown) => session.pushNotice('error', `The file could not be read to its end: ${error instanceof Error ? error.message : String(error)}`));
    panel.onDidDispose(() => {
      unsubscribe();
      disposable.dispose();
    });
  }
}
