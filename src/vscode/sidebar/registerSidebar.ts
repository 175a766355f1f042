// Wires the sidebar chat: store, messenger, router, the chat service, and the view provider.
import * as vscode from 'vscode';
import type { ChatTarget } from '../../shared/sidebarState';
import type { RlmServices } from '../rlmServices';
import { readSettings } from '../settings/readSettings';
import { isModelConfigured, modelLabel } from '../settings/rlmSettings';
import { SidebarChatService } from './sidebarChatService';
import { SidebarRouter } from './sidebarRouter';
import { SidebarStore } from './sidebarStore';
import { SIDEBAR_VIEW_ID, SidebarViewProvider } from './sidebarViewProvider';
import { WebviewMessenger } from './webviewMessenger';

function activeFileTarget(): ChatTarget[] {
  const doc = vscode.window.activeTextEditor?.document;
  if (!doc || (doc.uri.scheme !== 'file' && doc.uri.scheme !== 'untitled')) return [];
  return [{ kind: 'file', label: vscode.workspace.asRelativePath(doc.uri), uri: doc.uri.toString() }];
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
  services.chat = chat;
  const provider = new SidebarViewProvider(services.context.extensionUri, messenger, router, services.log);
  store.setTargets(activeFileTarget());
  store.setModelLabel(currentModelLabel());
  store.setTrusted(vscode.workspace.isTrusted);
  return [
    vscode.window.registerWebviewViewProvider(SIDEBAR_VIEW_ID, provider),
    vscode.window.onDidChangeActiveTextEditor(() => store.setTargets(activeFileTarget())),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('rlm')) store.setModelLabel(currentModelLabel());
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => store.setTrusted(true)),
    vscode.commands.registerCommand('rlm.newConversation', () => router.receive({ type: 'chat.newConversation' })),
    { dispose: () => chat.dispose() },
  ];
}
