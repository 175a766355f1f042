// The sidebar chat's WebviewViewProvider. The state lives in SidebarStore (host side); a (re)created
// view is attached to the messenger and gets the full state once it says it is ready.
import * as vscode from 'vscode';
import { sidebarHtml } from './sidebarHtml';
import type { SidebarRouter } from './sidebarRouter';
import type { WebviewMessenger } from './webviewMessenger';
import { webviewAssets } from '../webviews/webviewAssets';

export const SIDEBAR_VIEW_ID = 'rlm.chat';

export class SidebarViewProvider implements vscode.WebviewViewProvider {
  private view: vscode.WebviewView | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly messenger: WebviewMessenger,
    private readonly router: SidebarRouter,
    private readonly log: vscode.LogOutputChannel,
  ) {}

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, 'dist', 'webview');
    const media = vscode.Uri.joinPath(this.extensionUri, 'media');
    view.webview.options = { enableScripts: true, localResourceRoots: [dist, media] };
    const assets = webviewAssets(this.extensionUri.fsPath);
    this.messenger.attach((message) => view.webview.postMessage(message));
    const subscriptions = [
      view.webview.onDidReceiveMessage((raw: unknown) => void this.router.receive(raw)),
      // A hidden view's page is discarded; until it is shown and says `ready` again, updates wait.
      view.onDidChangeVisibility(() => {
        if (!view.visible) this.messenger.attach((message) => view.webview.postMessage(message));
      }),
      view.onDidDispose(() => {
        if (this.view === view) {
          this.view = undefined;
          this.messenger.detach();
        }
        for (const s of subscriptions) s.dispose();
      }),
    ];
    view.webview.html = sidebarHtml({
      cspSource: view.webview.cspSource,
      scriptUri: view.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'sidebar.js')).toString(),
      codiconCssUri: view.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'codicon.css')).toString(),
      styleUri: view.webview.asWebviewUri(vscode.Uri.joinPath(media, 'sidebar.css')).toString(),
      scriptText: assets.text('dist', 'webview', 'sidebar.js'),
      styleText: assets.text('media', 'sidebar.css'),
    });
    this.log.debug('Sidebar view resolved');
  }

  /** Reveals the view (e.g. after a command asks about something from the chat). */
  reveal(): void {
    this.view?.show(true);
  }
}
