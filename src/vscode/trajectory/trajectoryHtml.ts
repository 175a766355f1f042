// The trajectory webview's page: a strict CSP with a fresh nonce, scripts and styles only from the
// extension's own files (already converted with asWebviewUri by the caller). No `vscode` import.
import { INITIAL_STATE_ID } from '../../shared/trajectoryProtocol';
import { escapeAttr, newNonce, webviewCsp } from '../webviewSecurity';

export interface TrajectoryHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  title: string;
  nonce?: string;
  /** The first state, carried in the page so the first screen needs no round trip (TrajectorySession.embeddedState). */
  initial?: { stamp: number; state: unknown };
}

/**
 * A JSON data block (never executed, so the CSP has nothing to allow). Every `<` is escaped, so no
 * text from a file or model can close the element or open a comment, whatever it holds.
 */
function initialStateBlock(initial: TrajectoryHtmlInput['initial']): string {
  if (!initial) return '';
  const json = JSON.stringify(initial.state).replace(/</g, '\\u003c');
  return `<script type="application/json" id="${INITIAL_STATE_ID}" data-stamp="${initial.stamp}">${json}</script>\n`;
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
${initialStateBlock(input.initial)}<script nonce="${nonce}" src="${escapeAttr(input.scriptUri)}"></script>
</body>
</html>`;
}
