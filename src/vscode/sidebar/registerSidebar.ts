// Wires the sidebar chat: store, messenger, router, the chat service, and the view provider.
import * as vscode from 'vscode';
import type { ChatTarget } from '../../shared/sidebarState';
import { activeFileUri, onDidChangeActiveFile } from '../context/activeTarget';
import type { RlmServices } from '../rlmServices';
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
  const store = new SidebarStore(messenger, () => `c${Date.now().toString(36)}-${++counter}`);
  // The chat service refreshes the history through the router, which needs the service: tie the knot lazily.
  const routerRef: { current?: SidebarRouter } = {};
  const chat = new SidebarChatService(services, store, () => routerRef.current?.history.refresh() ?? Promise.resolve());
  const router = new SidebarRouter(store, messenger, chat);
  routerRef.current = router;
  const provider = new SidebarViewProvider(services.context.extensionUri, messenger, router, services.log);
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
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => store.setTrusted(true)),
    vscode.commands.registerCommand('rlm.newConversation', () => router.receive({ type: 'chat.newConversation' })),
    { dispose: () => chat.dispose() },
  ];
}
