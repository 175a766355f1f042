// The sidebar webview's HTML: a strict CSP with a fresh nonce, and every resource through
// asWebviewUri (passed in as plain strings so this stays testable without `vscode`).

export interface SidebarHtmlInputs {
  cspSource: string;
  scriptUri: string;
  codiconCssUri: string;
  styleUri: string;
  nonce?: string;
}

/** 24 random alphanumerics. Web Crypto is a global in Node 20, so activation loads no crypto module. */
export function newNonce(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function sidebarHtml(inputs: SidebarHtmlInputs): string {
  const nonce = inputs.nonce ?? newNonce();
  const csp = [
    "default-src 'none'",
    `style-src ${inputs.cspSource} 'nonce-${nonce}'`,
    `font-src ${inputs.cspSource}`,
    `img-src ${inputs.cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
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
