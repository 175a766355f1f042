// Trajectory panels: one per conversation or run, following a live run to its end, and recorded runs
// opened by RLM itself (History, Open trajectory..., a notification's or the chat's button, a parent
// link), titled by their question (a custom editor's tab is named after its file, whatever its title). A question opens
// its view the moment it is asked ("starting": the question, the models, the target), and the run is
// attached to that view once it exists; a follow-up moves its conversation's view on to it. Moving
// on posts the new state to the page, which keeps running (no reload, no blank moment). After a
// window reload the run is gone, so a revived panel reopens the run's trajectory file (saved in the
// webview state).
import * as vscode from 'vscode';
import type { RunNode } from '../../core/trajectory/treeTypes';
import { emptyRunningRun, LiveFeed } from './liveFeed';
import type { LiveRun, PendingView, StartingRun, UserCellHost } from '../run/liveRunTypes';
import type { RunSourceInfo } from './runProjection';
import type { TrajectorySession, UserCellActions } from './trajectorySession';
import { FileLoad } from './fileLoad';
import { viewTitle } from './viewTitle';
import { recordedUserCell, replayAndRun, setUpTrajectoryWebview, webviewOptions, type ViewLog } from './webviewSetup';
import { noticeText } from '../../shared/text/untrustedText';

export const LIVE_VIEW_TYPE = 'rlm.trajectoryLive';

interface RevivedState {
  source?: string;
}

const NO_PROBLEMS = { count: 0, first: [] };

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

/** What a view shows now: a run it follows, or a question whose run is still being started. */
interface Shown {
  /** The run's id, or the starting question's own until its run exists. */
  readonly runId: string;
  readonly run?: LiveRun;
  readonly trajectoryPath?: string;
  root(): RunNode;
  /** Every question of a recorded conversation (the view lists them, exports hold them all). */
  runs?(): RunNode[];
  info(): RunSourceInfo;
  isLive(): boolean;
  stop(): void;
  readonly userCell: UserCellActions;
  readonly exportBase?: vscode.Uri;
  /** Lets go of what it follows (the view moves on, or closes). */
  dispose(): void;
}

/** One open view: its panel, its page's session (kept while the view moves from run to run) and what it shows. */
interface PanelEntry {
  key: string;
  readonly panel: vscode.WebviewPanel;
  session?: TrajectorySession;
  shown: Shown;
  disposed: boolean;
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

/** What a starting question's header names before its run records it. */
type StartingFacts = Pick<RunSourceInfo, 'rootModel' | 'subModel' | 'target'>;

function startingFacts(starting: StartingRun): StartingFacts {
  return {
    ...(starting.rootModel ? { rootModel: starting.rootModel } : {}),
    ...(starting.subModel ? { subModel: starting.subModel } : {}),
    ...(starting.target ? { target: starting.target } : {}),
  };
}

/** By conversation (a follow-up reuses its question's view), or by run for a question asked on its own. */
function keyOf(run: { runId: string; conversationId?: string | undefined }): string {
  return run.conversationId ? `conversation:${run.conversationId}` : `run:${run.runId}`;
}

export class LivePanels implements vscode.WebviewPanelSerializer<RevivedState>, vscode.Disposable {
  private readonly panels = new Map<string, PanelEntry>();
  /** The trajectory file of the live panel last in front, for "Export trajectory..." to offer first. */
  private activePath: string | undefined;
  private startingCount = 0;

  get lastActivePath(): string | undefined {
    return this.activePath;
  }

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly log: ViewLog,
    private readonly askAgain?: (question: string) => Promise<void>,
  ) {}

  open(run: LiveRun): void {
    const key = keyOf(run);
    const existing = this.panels.get(key) ?? [...this.panels.values()].find((e) => e.shown.runId === run.runId);
    if (existing?.shown.runId === run.runId) {
      existing.panel.reveal(undefined, true);
      return;
    }
    if (existing) {
      // A follow-up in the same conversation: the conversation's view now shows it, in its tab.
      this.show(existing, this.runShown(existing, run));
      this.rekey(existing, key);
      existing.panel.reveal(undefined, true);
      return;
    }
    this.create(key, viewTitle({ question: run.question ?? '' }), (entry) => this.runShown(entry, run));
  }

  /**
   * Opens the view of a question being asked, before its run exists (the engine loading, the REPL
   * starting, the input being read): the question, the models and the target at once, then the run
   * once `attach` hands it over. `abandon` (nothing was asked, or it failed before starting) closes a
   * view opened for it, or puts a conversation's view back on the run it showed.
   */
  openStarting(starting: StartingRun): PendingView {
    const key = starting.conversationId ? `conversation:${starting.conversationId}` : `starting:${++this.startingCount}`;
    const existing = this.panels.get(key);
    const previous = existing?.shown.run;
    const about = startingFacts(starting);
    let entry: PanelEntry;
    if (existing) {
      this.show(existing, this.startingShown(starting));
      existing.panel.reveal(undefined, true);
      entry = existing;
    } else {
      entry = this.create(key, viewTitle({ question: starting.question }), () => this.startingShown(starting));
    }
    let settled = false;
    return {
      attach: (run) => {
        if (settled) return;
        settled = true;
        // Closed while the run was starting: the run still gets its view, as if just asked.
        if (entry.disposed) return this.open(run);
        // Until the run records its models and target (after its REPL has started), the header keeps naming them.
        this.show(entry, this.runShown(entry, run, about));
        this.rekey(entry, keyOf(run));
      },
      abandon: () => {
        if (settled || entry.disposed) return;
        settled = true;
        if (previous) this.show(entry, this.runShown(entry, previous));
        else entry.panel.dispose();
      },
    };
  }

  /**
   * Opens a recorded run in a panel titled by its question. The run's view already open (live or
   * recorded, or the file in RLM's editor) is brought to the front instead: one view per run.
   */
  async openRecorded(uri: vscode.Uri): Promise<void> {
    const path = uri.fsPath;
    const open = this.panels.get(`file:${path}`) ?? [...this.panels.values()].find((e) => e.shown.trajectoryPath === path);
    if (open) {
      open.panel.reveal(undefined, false);
      return;
    }
    const inEditor = vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((tab) => tab.input instanceof vscode.TabInputCustom && tab.input.viewType.startsWith('rlm.') && tab.input.uri.fsPath === path);
    if (inEditor && inEditor.input instanceof vscode.TabInputCustom) {
      await vscode.commands.executeCommand('vscode.openWith', uri, inEditor.input.viewType, inEditor.group.viewColumn);
      return;
    }
    const started = Date.now();
    const load = new FileLoad(path, { source: path });
    await load.firstScreen;
    this.log.info(`trajectory ${path}: first turns shown after ${Date.now() - started} ms`);
    // Opened twice while the first was still reading: the first one's view.
    const raced = this.panels.get(`file:${path}`);
    if (raced) {
      raced.panel.reveal(undefined, false);
      return;
    }
    // Where the user is, focused, as opening a file would.
    this.create(`file:${path}`, viewTitle(load.root()), (entry) => this.recordedShown(entry, uri, load), { viewColumn: vscode.ViewColumn.Active, preserveFocus: false });
  }

  /** A recorded run read from its file (the rest arrives as updates while a large file is read). */
  private recordedShown(entry: PanelEntry, uri: vscode.Uri, load: FileLoad): Shown {
    const unsubscribe = load.onChange((changes) => {
      if (entry.shown === shown) entry.session?.pushChanges(changes);
    });
    load.done.catch((error: unknown) => {
      if (entry.shown === shown) entry.session?.pushNotice('error', `The file could not be read to its end: ${error instanceof Error ? error.message : String(error)}`);
    });
    const shown: Shown = {
      runId: load.root().runId,
      trajectoryPath: uri.fsPath,
      root: () => load.root(),
      runs: () => load.runs(),
      info: () => load.info(),
      isLive: () => false,
      stop: () => undefined,
      userCell: recordedUserCell(uri),
      exportBase: uri,
      dispose: unsubscribe,
    };
    return shown;
  }

  /** A new panel showing what `initial` makes for it. */
  private create(key: string, title: string, initial: (entry: PanelEntry) => Shown, where?: { viewColumn: vscode.ViewColumn; preserveFocus: boolean }): PanelEntry {
    // A question's view opens beside the asking editor, which keeps the focus.
    const panel = vscode.window.createWebviewPanel(LIVE_VIEW_TYPE, title, where ?? { viewColumn: besideColumn(isRlmTab), preserveFocus: true }, webviewOptions(this.extensionUri));
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'rlm.svg');
    const entry = { key, panel, disposed: false } as PanelEntry;
    entry.shown = initial(entry);
    const shown = (): Shown => entry.shown;
    const setup = setUpTrajectoryWebview({
      extensionUri: this.extensionUri,
      panel,
      root: () => shown().root(),
      runs: () => shown().runs?.() ?? [shown().root()],
      info: () => shown().info(),
      isLive: () => shown().isLive(),
      stop: () => shown().stop(),
      exportBase: () => shown().exportBase,
      userCell: { state: () => shown().userCell.state(), run: (code) => shown().userCell.run(code), stop: () => shown().userCell.stop() },
      log: this.log,
      ...(this.askAgain ? { askAgain: this.askAgain } : {}),
    });
    entry.session = setup.session;
    this.panels.set(key, entry);
    this.notePath(entry);
    const viewState = panel.onDidChangeViewState(() => {
      if (panel.active) this.notePath(entry);
    });
    panel.onDidDispose(() => {
      entry.disposed = true;
      entry.shown.dispose();
      viewState.dispose();
      setup.disposable.dispose();
      if (this.panels.get(entry.key) === entry) this.panels.delete(entry.key);
    });
    return entry;
  }

  /** The view moves on to `next`: the old one is let go, the page gets the new state as a message. */
  private show(entry: PanelEntry, next: Shown): void {
    entry.shown.dispose();
    entry.shown = next;
    entry.panel.title = viewTitle(next.root());
    entry.session?.pushState();
    this.notePath(entry);
  }

  private rekey(entry: PanelEntry, key: string): void {
    if (entry.key === key) return;
    if (this.panels.get(entry.key) === entry) this.panels.delete(entry.key);
    entry.key = key;
    this.panels.set(key, entry);
  }

  private notePath(entry: PanelEntry): void {
    if (entry.shown.trajectoryPath && (entry.panel.active || this.activePath === undefined)) this.activePath = entry.shown.trajectoryPath;
  }

  /** Follows `run` in `entry`'s view; its dispose lets go of the run (and of its REPL for the user's cells). */
  private runShown(entry: PanelEntry, run: LiveRun, about: StartingFacts = {}): Shown {
    const feed = new LiveFeed({
      run,
      onFlush: (changes, streams) => {
        const session = entry.session;
        if (!session || entry.shown !== shown) return;
        for (const s of streams) session.pushStreaming(s.runId, s.turnIndex, s.text);
        if (changes.length) session.pushChanges(changes);
        entry.panel.title = viewTitle(feed.root());
      },
    });
    feed.start();
    const record = run.trajectoryPath ? vscode.Uri.file(run.trajectoryPath) : undefined;
    const host = run.userCells;
    // The run's REPL stays open for the user's cells while this view shows it.
    const letGo = host?.retain();
    const unwatch = host?.onChange(() => {
      if (entry.shown === shown) entry.session?.pushUserCellState();
    });
    let disposed = false;
    const shown: Shown = {
      runId: run.runId,
      run,
      ...(run.trajectoryPath ? { trajectoryPath: run.trajectoryPath } : {}),
      root: () => feed.root(),
      info: () => ({ source: run.trajectoryPath ?? 'live', format: 'live', problems: NO_PROBLEMS, ...about }),
      isLive: () => feed.isLive(),
      stop: () => run.stop(),
      userCell: host ? liveUserCell(host, record) : recordedUserCell(record),
      ...(record ? { exportBase: record } : {}),
      dispose: () => {
        if (disposed) return;
        disposed = true;
        if (this.activePath === run.trajectoryPath) this.activePath = undefined;
        unwatch?.();
        letGo?.();
        feed.dispose();
      },
    };
    return shown;
  }

  /** A question whose run is being started: what is known of it already, and Stop to give up. */
  private startingShown(starting: StartingRun): Shown {
    const node = emptyRunningRun(`starting-${this.startingCount}-${Date.now()}`, Date.now());
    node.question = starting.question;
    const info: RunSourceInfo = { source: 'live', format: 'live', problems: NO_PROBLEMS, ...startingFacts(starting) };
    return {
      runId: node.runId,
      root: () => node,
      info: () => info,
      isLive: () => true,
      stop: () => starting.stop(),
      userCell: {
        state: () => ({ status: 'waiting', reason: 'The run is starting: your cells can run in its REPL once it has ended.' }),
        run: async () => {
          throw new Error('The run is starting: your cells can run in its REPL once it has ended.');
        },
        stop: () => undefined,
      },
      dispose: () => undefined,
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
        exportBase: () => vscode.Uri.file(source),
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
      void vscode.window.showErrorMessage(noticeText(`RLM could not reopen the trajectory ${source}: ${error instanceof Error ? error.message : String(error)}`));
    }
  }

  dispose(): void {
    for (const entry of [...this.panels.values()]) entry.panel.dispose();
    this.panels.clear();
  }
}
