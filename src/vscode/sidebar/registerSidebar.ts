// Wires the sidebar chat: store, messenger, router, the chat service, and the view provider.
import * as vscode from 'vscode';
import type { ChatTarget, SidebarState } from '../../shared/sidebarState';
import { activeFileUri, onDidChangeActiveFile } from '../context/activeTarget';
import { CHAT_STATE_KEY, fromSaved, toSaved } from './chatPersistence';
import type { RlmServices } from '../services/rlmServices';
import { readSettings } from '../settings/readSettings';
import { isModelConfigured, modelLabel } from '../settings/rlmSettings';
import { SidebarChatService } from './sidebarChatService';
import { SidebarRouter } from './sidebarRouter';
import { SidebarStore } from './sidebarStore';
import { SIDEBAR_VIEW_ID, SidebarViewProvider } from './sidebarViewProvider';
import { WebviewMessenger } from './webviewMessenger';

/** The active tab's file, whatever editor shows it (a log too large to display included). */
function activeFileTarget(): ChatTarget[] {
  const uri = activeFileUri();
  if (!uri) return [];
  return [{ kind: 'file', label: vscode.workspace.asRelativePath(uri), uri: uri.toString() }];
}

/** The trajectory path a History item's context menu was opened on (undefined: the router refuses it). */
function contextPath(arg: unknown): unknown {
  return typeof arg === 'object' && arg !== null ? (arg as { trajectoryPath?: unknown }).trajectoryPath : undefined;
}

function currentModelLabel(): string | undefined {
  try {
    const settings = readSettings();
    return isModelConfigured(settings) ? modelLabel(settings.root) : undefined;
  } catch {
    return undefined;
  }
}

export function registerSidebar(services: RlmServices): vscode.Disposable[] {
  let counter = 0;
  const messenger = new WebviewMessenger();
  // The chat and its tab come back after a window reload (saved a moment after each change).
  const state = services.context.workspaceState;
  let saveTimer: ReturnType<typeof setTimeout> | undefined;
  let pending: SidebarState | undefined;
  const save = (): void => {
    saveTimer = undefined;
    if (pending) void state.update(CHAT_STATE_KEY, toSaved(pending));
    pending = undefined;
  };
  const store = new SidebarStore(messenger, () => `c${Date.now().toString(36)}-${++counter}`, fromSaved(state.get(CHAT_STATE_KEY), Date.now()), (s) => {
    pending = s;
    saveTimer ??= setTimeout(save, 500);
  });
  // The chat service refreshes the history through the router, which needs the service: tie the knot lazily.
  const routerRef: { current?: SidebarRouter } = {};
  const chat = new SidebarChatService(services, store, () => routerRef.current?.history.refresh() ?? Promise.resolve());
  const router = new SidebarRouter(store, messenger, chat);
  routerRef.current = router;
  services.chat = chat;
  const provider = new SidebarViewProvider(services.context.extensionUri, messenger, router, services.log);
  // History keeps up by itself: a run starting or ending anywhere in this window (chat or command),
  // and a recorded run appearing or going in the folder (the CLI, another window), re-read it.
  const history = (): void => router.history.refreshSoon();
  const unsubscribeRuns = services.registry.onDidChange(history);
  let watcher: vscode.FileSystemWatcher | undefined;
  const watchDirectory = (): void => {
    watcher?.dispose();
    try {
      watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(services.trajectoryDirectory()), '*.rlm.jsonl'), false, true, false);
      watcher.onDidCreate(history);
      watcher.onDidDelete(history);
    } catch (error) {
      services.log.warn(`History will not follow the run folder by itself: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  watchDirectory();
  // Tab events are frequent (a tab turning dirty is one); the webview hears only real changes.
  let shownTargets = '';
  const refreshTargets = (): void => {
    const targets = activeFileTarget();
    const key = targets.map((t) => t.uri).join('\n');
    if (key === shownTargets) return;
    shownTargets = key;
    store.setTargets(targets);
  };
  refreshTargets();
  store.setModelLabel(currentModelLabel());
  store.setTrusted(vscode.workspace.isTrusted);
  return [
    vscode.window.registerWebviewViewProvider(SIDEBAR_VIEW_ID, {
      // Opening the chat means a question is coming: a REPL starts now, so the first run does not wait for it.
      resolveWebviewView: (view) => {
        services.prewarmReplSoon();
        provider.resolveWebviewView(view);
      },
    }),
    onDidChangeActiveFile(refreshTargets),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('rlm')) store.setModelLabel(currentModelLabel());
      if (e.affectsConfiguration('rlm.trajectoryDirectory') || e.affectsConfiguration('rlm.trajectoriesInWorkspace')) {
        watchDirectory();
        history();
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => store.setTrusted(true)),
    vscode.commands.registerCommand('rlm.newConversation', () => router.receive({ type: 'chat.newConversation' })),
    // The History items' context menu (webview/context): the argument is the item's data-vscode-context;
    // the router checks it like any message from the page.
    vscode.commands.registerCommand('rlm.history.openItem', (arg: unknown) => router.receive({ type: 'history.open', path: contextPath(arg) })),
    vscode.commands.registerCommand('rlm.history.deleteItem', (arg: unknown) => router.receive({ type: 'history.delete', path: contextPath(arg) })),
    { dispose: () => chat.dispose() },
    {
      dispose: () => {
        unsubscribeRuns();
        watcher?.dispose();
        if (saveTimer) {
          clearTimeout(saveTimer);
          save();
        }
        router.history.dispose();
      },
    },
  ];
}
