// What every RLM webview page shares: a fresh script nonce, attribute escaping, the strict CSP
// (nothing but the extension's own files; scripts and inline styles only with the nonce), and the
// page around the app. No `vscode` import.
//
// The app's script and stylesheet are put in the page itself when they can be (webviewAssets.ts):
// in VS Code for the web (code-server) webviews share one origin and one service worker scope, and a
// webview created beside others (a window reload restoring the chat and two trajectory views) could
// come up with no working worker for good. Its files then went to the network and failed, leaving
// the view blank or at "Loading RLM…"; loading them again, or setting the HTML again, did not help.

/** 24 random alphanumerics. Web Crypto is a global in Node 20, so activation loads no crypto module. */
export function newNonce(): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(24));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}

export const escapeAttr = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The Content-Security-Policy value for a page whose resources come from `cspSource` (webview.cspSource). */
export function webviewCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `style-src ${cspSource} 'nonce-${nonce}'`,
    `font-src ${cspSource}`,
    `img-src ${cspSource} data:`,
    `script-src 'nonce-${nonce}'`,
  ].join('; ');
}

/** True when `text` can sit inside <script>…</script>: nothing in it can end the element early. */
export function canInlineScript(text: string): boolean {
  const lower = text.toLowerCase();
  if (lower.includes('</script')) return false;
  // After "<!--", a "<script" would make the parser skip the next "</script>".
  const comment = lower.indexOf('<!--');
  return comment < 0 || !lower.includes('<script', comment);
}

/** True when `text` can sit inside <style>…</style>. */
export function canInlineStyle(text: string): boolean {
  return !text.toLowerCase().includes('</style');
}

export interface WebviewPageInput {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  title: string;
  /** `text`: the sheet itself, put in the page (when canInlineStyle); otherwise linked by `href`. */
  stylesheets: Array<{ href: string; id?: string; text?: string }>;
  /** Markup the caller built from constants and escaped values only: it is inserted as it is. */
  bodyHtml: string;
  scriptUri: string;
  /** The script itself, put in the page (when canInlineScript) instead of loading `scriptUri`. */
  scriptText?: string;
}

/** The HTML page of a webview: CSP, stylesheets, the caller's body, then the one nonce'd script. */
export function webviewPage(input: WebviewPageInput): string {
  const { nonce } = input;
  const links = input.stylesheets
    .map((s) =>
      s.text !== undefined && canInlineStyle(s.text)
        ? `<style nonce="${nonce}"${s.id ? ` id="${escapeAttr(s.id)}"` : ''}>${s.text}</style>`
        : `<link rel="stylesheet" href="${escapeAttr(s.href)}"${s.id ? ` id="${escapeAttr(s.id)}"` : ''} nonce="${nonce}">`,
    )
    .join('\n');
  const script =
    input.scriptText !== undefined && canInlineScript(input.scriptText)
      ? `<script nonce="${nonce}">${input.scriptText}</script>`
      : `<script nonce="${nonce}" src="${escapeAttr(input.scriptUri)}"></script>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttr(webviewCsp(input.cspSource, nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
${links}
<title>${escapeAttr(input.title)}</title>
</head>
<body>
${input.bodyHtml}${script}
</body>
</html>`;
}
