// Live trajectory panels: one per running question, following it to its end. After a window reload
// the run is gone, so a revived panel reopens the run's trajectory file (saved in the webview state).
import * as vscode from 'vscode';
import { LiveFeed } from './liveFeed';
import type { LiveRun, UserCellHost } from '../run/liveRunTypes';
import type { UserCellActions } from './trajectorySession';
import { FileLoad } from './fileLoad';
import { viewTitle } from './viewTitle';
import { replayAndRun, setUpTrajectoryWebview, webviewOptions, type ViewLog } from './webviewSetup';

export const LIVE_VIEW_TYPE = 'rlm.trajectoryLive';

interface RevivedState {
  source?: string;
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

/** One open view: the panel and the run it shows now; `detach` lets go of that run (a follow-up takes its place). */
interface PanelEntry {
  panel: vscode.WebviewPanel;
  runId: string;
  detach(): void;
}

/**
 * Where a new view opens: beside the editor that asked, in a group that exists when there is one.
 * VS Code's ViewColumn.Beside opens a new group right of the active one, so a question asked from
 * the rightmost of three groups would make a fourth; here that goes to the group on its left. A
 * group that already holds an RLM view is preferred, so the views gather in one place.
 */
function besideColumn(isRlmTab: (tab: vscode.Tab) => boolean): vscode.ViewColumn {
  const groups = vscode.window.tabGroups.all;
  const asking = vscode.window.activeTextEditor?.viewColumn ?? vscode.window.tabGroups.activeTabGroup.viewColumn;
  if (groups.length <= 1) return vscode.ViewColumn.Beside;
  const withViews = groups.find((g) => g.viewColumn !== asking && g.tabs.some(isRlmTab));
  if (withViews) return withViews.viewColumn;
  const index = groups.findIndex((g) => g.viewColumn === asking);
  const right = index >= 0 ? groups[index + 1] : undefined;
  const left = index > 0 ? groups[index - 1] : undefined;
  return (right ?? left ?? groups[groups.length - 1]!).viewColumn;
}

function isRlmTab(tab: vscode.Tab): boolean {
  const input = tab.input;
  if (input instanceof vscode.TabInputWebview) return input.viewType.endsWith(LIVE_VIEW_TYPE);
  return input instanceof vscode.TabInputCustom && input.viewType.startsWith('rlm.');
}

export class LivePanels implements vscode.WebviewPanelSerializer<RevivedState>, vscode.Disposable {
  /** By conversation (a follow-up reuses its question's view), or by run for a question asked on its own. */
  private readonly panels = new Map<string, PanelEntry>();
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
    const key = run.conversationId ? `conversation:${run.conversationId}` : `run:${run.runId}`;
    const existing = this.panels.get(key) ?? [...this.panels.values()].find((e) => e.runId === run.runId);
    if (existing?.runId === run.runId) {
      existing.panel.reveal(undefined, true);
      return;
    }
    let panel: vscode.WebviewPanel;
    if (existing) {
      // A follow-up in the same conversation: the conversation's view now shows it, in its tab.
      existing.detach();
      panel = existing.panel;
      panel.reveal(undefined, true);
    } else {
      panel = vscode.window.createWebviewPanel(LIVE_VIEW_TYPE, viewTitle({ question: run.question ?? '' }), { viewColumn: besideColumn(isRlmTab), preserveFocus: true }, webviewOptions(this.extensionUri));
      panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'rlm.svg');
      panel.onDidDispose(() => {
        this.panels.get(key)?.detach();
        this.panels.delete(key);
      });
    }
    this.panels.set(key, { panel, runId: run.runId, detach: this.attach(panel, run) });
  }

  /** Shows `run` in `panel` and follows it; returns what lets go of it. */
  private attach(panel: vscode.WebviewPanel, run: LiveRun): () => void {
    // The feed exists before the session (the session reads the feed's tree), so it posts through this.
    const sink: { session?: ReturnType<typeof setUpTrajectoryWebview>['session'] } = {};
    const feed = new LiveFeed({
      run,
      onFlush: (changes, streams) => {
        const session = sink.session;
        if (!session) return;
        for (const s of streams) session.pushStreaming(s.runId, s.turnIndex, s.text);
        if (changes.length) session.pushChanges(changes);
        panel.title = viewTitle(feed.root());
      },
    });
    feed.start();
    panel.title = viewTitle(feed.root());
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
    const viewState = panel.onDidChangeViewState(() => {
      if (panel.active && run.trajectoryPath) this.activePath = run.trajectoryPath;
    });
    const unwatch = host?.onChange(() => setup.session.pushUserCellState());
    let detached = false;
    return () => {
      if (detached) return;
      detached = true;
      if (this.activePath === run.trajectoryPath) this.activePath = undefined;
      viewState.dispose();
      unwatch?.();
      letGo?.();
      feed.dispose();
      setup.disposable.dispose();
    };
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
      panel.title = viewTitle(load.root());
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
    for (const entry of this.panels.values()) entry.panel.dispose();
    this.panels.clear();
  }
}
