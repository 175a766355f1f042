// The trajectory webview's page: a strict CSP with a fresh nonce, scripts and styles only from the
// extension's own files (already converted with asWebviewUri by the caller). No `vscode` import.
import { escapeAttr, newNonce, webviewCsp } from '../webviewSecurity';

export interface TrajectoryHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  title: string;
  nonce?: string;
}

export function trajectoryHtml(input: TrajectoryHtmlInput): string {
  const nonce = input.nonce ?? newNonce();
  const csp = webviewCsp(input.cspSource, nonce);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escapeAttr(input.codiconUri)}" nonce="${nonce}">
<link rel="stylesheet" href="${escapeAttr(input.styleUri)}" nonce="${nonce}">
<title>${escapeAttr(input.title)}</title>
</head>
<body>
<div id="app" class="app"></div>
<script nonce="${nonce}" src="${escapeAttr(input.scriptUri)}"></script>
</body>
</html>`;
}
