// The sidebar webview's HTML: a strict CSP with a fresh nonce, and every resource through
// asWebviewUri (passed in as plain strings so this stays testable without `vscode`).
import { newNonce, webviewPage } from '../webviews/webviewSecurity';

export interface SidebarHtmlInputs {
  cspSource: string;
  scriptUri: string;
  codiconCssUri: string;
  styleUri: string;
  /** sidebar.js and sidebar.css themselves, carried in the page when given (webviewAssets.ts). */
  scriptText?: string;
  styleText?: string;
  nonce?: string;
}

export function sidebarHtml(inputs: SidebarHtmlInputs): string {
  return webviewPage({
    cspSource: inputs.cspSource,
    nonce: inputs.nonce ?? newNonce(),
    title: 'RLM',
    // vscode-elements finds the codicon font through this id.
    stylesheets: [{ href: inputs.codiconCssUri, id: 'vscode-codicon-stylesheet' }, { href: inputs.styleUri, text: inputs.styleText }],
    bodyHtml: '<div id="app" aria-live="polite"><p class="loading">Loading RLM…</p></div>\n',
    scriptUri: inputs.scriptUri,
    scriptText: inputs.scriptText,
  });
}
