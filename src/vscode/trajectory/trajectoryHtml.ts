// The trajectory webview's page: a strict CSP with a fresh nonce, scripts and styles only from the
// extension's own files (carried in the page, or converted with asWebviewUri by the caller). No
// `vscode` import.
import { INITIAL_STATE_ID } from '../../shared/trajectoryProtocol';
import { newNonce, webviewPage } from '../webviews/webviewSecurity';

export interface TrajectoryHtmlInput {
  /** webview.cspSource */
  cspSource: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  /** trajectory.js and trajectory.css themselves, carried in the page when given (webviewAssets.ts). */
  scriptText?: string;
  styleText?: string;
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
  return webviewPage({
    cspSource: input.cspSource,
    nonce: input.nonce ?? newNonce(),
    title: input.title,
    stylesheets: [{ href: input.codiconUri }, { href: input.styleUri, text: input.styleText }],
    bodyHtml: `<div id="app" class="app"></div>\n${initialStateBlock(input.initial)}`,
    scriptUri: input.scriptUri,
    scriptText: input.scriptText,
  });
}
