// Live trajectory panels: one per running question, following it to its end. After a window reload
// the run is gone, so a revived panel reopens the run's trajectory file (saved in the webview state).
import * as vscode from 'vscode';
import { LiveFeed } from './liveFeed';
import type { LiveRun, UserCellHost } from './liveRunTypes';
import type { UserCellActions } from './trajectorySession';
import { FileLoad } from './fileLoad';
import { replayAndRun, setUpTrajectoryWebview, webviewOptions, type ViewLog } from './webviewSetup';

export const LIVE_VIEW_TYPE = 'rlm.trajectoryLive';

interface RevivedState {
  source?: string;
}

/** The question is the title: "RLM: How many lines and words?" (clipped). */
export function titleFor(question: string): string {
  const short = question.replace(/\s+/g, ' ').trim();
  return `RLM: ${short.length > 40 ? `${short.slice(0, 39)}…` : short || 'run'}`;
}

/** A live run's cell input: its REPL while it is kept, else a replay of its file into a new one. */
function liveUserCell(host: UserCellHost, record: vscode.Uri | undefined): UserCellActions {
  return {
    state: () => host.state(),
    run: async (code) => {
      const state = host.state();
      if (state.status === 'gone' && state.replayable && record) await replayAndRun(record, code);
      else await host.run(code);
    },
    stop: () => host.stop(),
  };
}

export class LivePanels implements vscode.WebviewPanelSerializer<RevivedState>, vscode.Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  /** The trajectory file of the live panel last in front, for "Export trajectory..." to offer first. */
  private activePath: string | undefined;

  get lastActivePath(): string | undefined {
    return this.activePath;
  }

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: ViewLog,
    private readonly askAgain?: (question: string) => Promise<void>,
  ) {}

  open(run: LiveRun): void {
    const existing = this.panels.get(run.runId);
    if (existing) {
      existing.reveal(undefined, true);
      return;
    }
    const panel = vscode.window.createWebviewPanel(LIVE_VIEW_TYPE, 'RLM: run', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, webviewOptions(this.extensionUri));
    this.panels.set(run.runId, panel);
    // The feed exists before the session (the session reads the feed's tree), so it posts through this.
    const sink: { session?: ReturnType<typeof setUpTrajectoryWebview>['session'] } = {};
    const feed = new LiveFeed({
      run,
      onFlush: (changes, streams) => {
        const session = sink.session;
        if (!session) return;
        for (const s of streams) session.pushStreaming(s.runId, s.turnIndex, s.text);
        if (changes.length) session.pushChanges(changes);
        panel.title = titleFor(feed.root().question);
      },
    });
    feed.start();
    panel.title = titleFor(feed.root().question);
    const record = run.trajectoryPath ? vscode.Uri.file(run.trajectoryPath) : undefined;
    const host = run.userCells;
    // The run's REPL stays open for the user's cells while this view is.
    const letGo = host?.retain();
    const setup = setUpTrajectoryWebview({
      extensionUri: this.extensionUri,
      panel,
      root: () => feed.root(),
      info: () => ({ source: run.trajectoryPath ?? 'live', format: 'live', problems: { count: 0, first: [] } }),
      isLive: () => feed.isLive(),
      stop: () => run.stop(),
      exportBase: record,
      ...(host ? { userCell: liveUserCell(host, record) } : {}),
      log: this.log,
      ...(this.askAgain ? { askAgain: this.askAgain } : {}),
    });
    sink.session = setup.session;
    if (run.trajectoryPath) this.activePath = run.trajectoryPath;
    panel.onDidChangeViewState(() => {
      if (panel.active && run.trajectoryPath) this.activePath = run.trajectoryPath;
    });
    const unwatch = host?.onChange(() => setup.session.pushUserCellState());
    panel.onDidDispose(() => {
      if (this.activePath === run.trajectoryPath) this.activePath = undefined;
      unwatch?.();
      letGo?.();
      feed.dispose();
      setup.disposable.dispose();
      this.panels.delete(run.runId);
    });
  }

  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: RevivedState | undefined): Promise<void> {
    const source = state?.source;
    if (!source || source === 'live') {
      panel.webview.options = { enableScripts: false };
      panel.webview.html = `<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src 'none'"></head><body><p>This live run ended when the window reloaded and it had no trajectory file to reopen.</p></body></html>`;
      return;
    }
    try {
      const load = new FileLoad(source, { source });
      await load.firstScreen;
      panel.title = titleFor(load.root().question);
      const setup = setUpTrajectoryWebview({
        extensionUri: this.extensionUri,
        panel,
        root: () => load.root(),
        info: () => load.info(),
        isLive: () => false,
        exportBase: vscode.Uri.file(source),
        log: this.log,
        ...(this.askAgain ? { askAgain: this.askAgain } : {}),
      });
      const unsubscribe = load.onChange((changes) => setup.session.pushChanges(changes));
      panel.onDidDispose(() => {
        unsubscribe();
        setup.disposable.dispose();
      });
    } catch (error) {
      this.log.error(`could not reopen ${source}: ${String(error)}`);
      panel.dispose();
      void vscode.window.showErrorMessage(`RLM could not reopen the trajectory ${source}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  dispose(): void {
    for (const panel of this.panels.values()) panel.dispose();
    this.panels.clear();
  }
}
