// What every RLM webview page shares: a fresh script nonce, attribute escaping, the strict CSP
// (nothing but the extension's own files; scripts only with the nonce), and the page around the
// app. No `vscode` import.

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

export interface WebviewPageInput {
  /** webview.cspSource */
  cspSource: string;
  nonce: string;
  title: string;
  stylesheets: Array<{ href: string; id?: string }>;
  /** Markup the caller built from constants and escaped values only: it is inserted as it is. */
  bodyHtml: string;
  scriptUri: string;
}

/** The HTML page of a webview: CSP, stylesheets, the caller's body, then the one nonce'd script. */
export function webviewPage(input: WebviewPageInput): string {
  const { nonce } = input;
  const links = input.stylesheets
    .map((s) => `<link rel="stylesheet" href="${escapeAttr(s.href)}"${s.id ? ` id="${escapeAttr(s.id)}"` : ''} nonce="${nonce}">`)
    .join('\n');
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
${input.bodyHtml}<script nonce="${nonce}" src="${escapeAttr(input.scriptUri)}"></script>
</body>
</html>`;
}
