// The trajectory webview's page: a strict CSP with a fresh nonce, scripts and styles only from the
// extension's own files (already converted with asWebviewUri by the caller). No `vscode` import.
import { randomBytes } from 'node:crypto';

export interface TrajectoryHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  title: string;
  nonce?: string;
}

export function freshNonce(): string {
  return randomBytes(18).toString('base64').replace(/[^A-Za-z0-9]/g, '');
}

const escapeAttr = (s: string): string => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function trajectoryHtml(input: TrajectoryHtmlInput): string {
  const nonce = input.nonce ?? freshNonce();
  const csp = [
    "default-src 'none'",
    `img-src ${input.cspSource} data:`,
    `font-src ${input.cspSource}`,
    `style-src ${input.cspSource} 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
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
