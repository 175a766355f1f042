// Loads the real trajectory webview bundle in a plain Chromium page, with the production HTML and CSP,
// and answers its protocol with the real host session (TrajectorySession) in this Node process.
// Used by the browser tests and by bench/viewBench.ts. Needs `npm run build` (dist/webview/).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import type { RunNode } from '../../../../src/core/trajectory/treeTypes';
import type { HostToWebview } from '../../../../src/shared/trajectoryProtocol';
import type { RunSourceInfo } from '../../../../src/vscode/trajectory/runProjection';
import { trajectoryHtml } from '../../../../src/vscode/trajectory/trajectoryHtml';
import { TrajectorySession, type SessionActions } from '../../../../src/vscode/trajectory/trajectorySession';

const repo = resolve(import.meta.dirname, '../../../..');

export interface StubHost {
  session: TrajectorySession;
  /** Messages the page posted, in order. */
  received: unknown[];
  /** Actions the page asked for (stop, export, copy). */
  actions: string[];
  cleanup(): void;
}

export interface StubHostOptions {
  root(): RunNode;
  /** Every top-level run, for a file holding a conversation. */
  runs?(): RunNode[];
  info?: RunSourceInfo;
  isLive?(): boolean;
  stop?(): void;
  /** Folder holding trajectory.js and codicon.css; default dist/webview (the dev build). */
  webviewDir?: string;
}

/** Opens the view in `page` and resolves once the page is loaded (the handshake follows by itself). */
export async function openStubView(page: Page, options: StubHostOptions): Promise<StubHost> {
  const dir = mkdtempSync(join(tmpdir(), 'rlm-view-'));
  const received: unknown[] = [];
  const actions: string[] = [];
  // Host -> page messages go out strictly in order, as JSON text: Playwright's own argument
  // serialisation is far slower than VS Code's postMessage for large messages and would skew timings.
  let chain: Promise<unknown> = Promise.resolve();
  const post = (message: HostToWebview): void => {
    const json = JSON.stringify(message);
    chain = chain.then(() => page.evaluate(`window.postMessage(JSON.parse(${JSON.stringify(json)}), '*')`)).catch(() => undefined);
  };
  const sessionActions: SessionActions = {
    stop: options.stop ? () => { actions.push('stop'); options.stop?.(); } : undefined,
    exportAs: async (format) => void actions.push(`export:${format}`),
    copyText: async (text) => void actions.push(`copy:${text}`),
  };
  const session = new TrajectorySession({
    post,
    root: options.root,
    ...(options.runs && { runs: options.runs }),
    info: () => options.info ?? { source: 'test.rlm.jsonl', format: 'rlm', problems: { count: 0, first: [] } },
    isLive: options.isLive ?? (() => false),
    actions: sessionActions,
  });
  await page.exposeBinding('__rlmToHost', (_source, message: unknown) => {
    received.push(message);
    void session.handle(message);
  });
  const file = (...parts: string[]): string => pathToFileURL(join(repo, ...parts)).href;
  const nonce = 'stubnonce123';
  let html = trajectoryHtml({
    cspSource: 'file:',
    scriptUri: pathToFileURL(join(options.webviewDir ?? join(repo, 'dist', 'webview'), 'trajectory.js')).href,
    styleUri: file('media', 'trajectory.css'),
    codiconUri: pathToFileURL(join(options.webviewDir ?? join(repo, 'dist', 'webview'), 'codicon.css')).href,
    // As the extension does: the page carries its script and stylesheet (webviewAssets.ts).
    scriptText: readFileSync(join(options.webviewDir ?? join(repo, 'dist', 'webview'), 'trajectory.js'), 'utf8'),
    styleText: readFileSync(join(repo, 'media', 'trajectory.css'), 'utf8'),
    title: 'stub',
    nonce,
    initial: session.embeddedState(),
  });
  const stub = `<script nonce="${nonce}">
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));
let __state;
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__rlmToHost(m), getState: () => __state, setState: (s) => { __state = s; } });
</script>\n`;
  // Before the page's body, so the stand-in API exists when the app's script runs.
  html = html.replace('<body>\n', `<body>\n${stub}`);
  const pagePath = join(dir, 'index.html');
  writeFileSync(pagePath, html);
  await page.goto(pathToFileURL(pagePath).href);
  return { session, received, actions, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
