// The sidebar webview's HTML: a strict CSP with a fresh nonce, and every resource through
// asWebviewUri (passed in as plain strings so this stays testable without `vscode`).
import { escapeAttr, newNonce, webviewCsp } from '../webviewSecurity';

export interface SidebarHtmlInputs {
  cspSource: string;
  scriptUri: string;
  codiconCssUri: string;
  styleUri: string;
  nonce?: string;
}

export function sidebarHtml(inputs: SidebarHtmlInputs): string {
  const nonce = inputs.nonce ?? newNonce();
  const csp = webviewCsp(inputs.cspSource, nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(inputs.codiconCssUri)}" id="vscode-codicon-stylesheet">
<link rel="stylesheet" href="${escapeAttr(inputs.styleUri)}">
<title>RLM</title>
</head>
<body>
<div id="app" aria-live="polite"><p class="loading">Loading RLM…</p></div>
<script nonce="${nonce}" src="${escapeAttr(inputs.scriptUri)}"></script>
</body>
</html>`;
}
