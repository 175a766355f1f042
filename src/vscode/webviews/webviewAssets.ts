// The text of the extension's own webview files (the pages' scripts and stylesheets), read once and
// kept, so each page can carry them itself instead of loading them (webviewSecurity.ts says why).
// A file that cannot be read gives undefined and the page links to it as before. No `vscode` import.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type ReadText = (path: string) => string;

export class WebviewAssets {
  private readonly texts = new Map<string, string | undefined>();

  constructor(
    private readonly root: string,
    private readonly read: ReadText = (path) => readFileSync(path, 'utf8'),
  ) {}

  /** The file at `parts` under the extension's folder, e.g. text('dist', 'webview', 'sidebar.js'). */
  text(...parts: string[]): string | undefined {
    const path = join(this.root, ...parts);
    if (!this.texts.has(path)) {
      let text: string | undefined;
      try {
        text = this.read(path);
      } catch {
        text = undefined;
      }
      this.texts.set(path, text);
    }
    return this.texts.get(path);
  }
}

const byRoot = new Map<string, WebviewAssets>();

/** One reader per extension folder, shared by every view of the window. */
export function webviewAssets(extensionPath: string): WebviewAssets {
  let assets = byRoot.get(extensionPath);
  if (!assets) {
    assets = new WebviewAssets(extensionPath);
    byRoot.set(extensionPath, assets);
  }
  return assets;
}
