// The one call a UI spec makes: a fresh code-server with the packaged extension, a headless
// Chromium, and the workbench open on a folder, all stopped when the test ends (pass, fail or
// timeout) through the test's `after` hook.
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { startCodeServerSession } from './codeServerSession';
import type { CodeServerSession, CodeServerSessionOptions } from './codeServerSession';
import { Workbench } from './workbench';

interface OpenWorkbenchOptions extends Partial<CodeServerSessionOptions> {
  /**
   * Entries of the workbench `payload` URL parameter, e.g. [['extensionDevelopmentPath', uri]];
   * a function when they need the running server (its port is in every vscode-remote URI).
   */
  payload?: Array<[string, string]> | ((codeServer: CodeServerSession) => Array<[string, string]>);
  /** Called before the page navigates, e.g. to expose functions to it. */
  beforeOpen?: (page: Page, session: CodeServerSession) => Promise<void>;
}

interface WorkbenchSession {
  workbench: Workbench;
  page: Page;
  browser: Browser;
  codeServer: CodeServerSession;
  /** Idempotent; also registered with the test's `after` hook. */
  close(): Promise<void>;
}

/** The workbench URL for a folder (and optional payload) on a running code-server. */
export function workbenchUrl(baseUrl: string, folder: string, payload?: Array<[string, string]>): string {
  const url = new URL(baseUrl);
  url.searchParams.set('folder', folder);
  if (payload) url.searchParams.set('payload', JSON.stringify(payload));
  return url.toString();
}

/**
 * Runs in every frame before its own scripts. It makes code-server's PWA service worker fail to
 * register; every other service worker, the webviews' own included, registers as usual.
 * That worker is registered with scope "/", and on activation it claims every client in its scope.
 * The webviews' host frames are in that scope too. A webview frame loaded before the worker
 * activated is taken over by it; VS Code's webview page then logs "Found unexpected service worker
 * controller ... Waiting for controllerchange" and never shows its content. A spec then sees an
 * empty frame, in a fresh panel as well as after a reload. Desktop VS Code has no such worker,
 * and the worker only serves code-server's "install as an app".
 */
function refuseCodeServerPwaWorker(): void {
  const container = (globalThis as { navigator?: { serviceWorker?: ServiceWorkerContainer } }).navigator?.serviceWorker;
  if (!container) return;
  const register = container.register.bind(container);
  container.register = (url: string | URL, options?: RegistrationOptions): Promise<ServiceWorkerRegistration> =>
    /\/_static\/out\/browser\/serviceWorker\.js$/.test(new URL(String(url), location.href).pathname)
      ? Promise.reject(new Error('code-server\'s PWA service worker is not registered in the UI specs (see openWorkbench.ts)'))
      : register(url, options);
}

export async function openWorkbench(t: TestContext | undefined, options: OpenWorkbenchOptions = {}): Promise<WorkbenchSession> {
  const label = options.label ?? t?.name ?? 'workbench';
  const codeServer = await startCodeServerSession({ ...options, label });
  let browser: Browser | undefined;
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    const errors: unknown[] = [];
    await browser?.close().catch((err: unknown) => errors.push(err));
    await codeServer.dispose().catch((err: unknown) => errors.push(err));
    if (errors.length) throw new AggregateError(errors, 'cleanup of the workbench session failed');
  };
  t?.after(close);
  try {
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.addInitScript(refuseCodeServerPwaWorker);
    const page = await context.newPage();
    const workbench = new Workbench(page, label.replace(/[^A-Za-z0-9_-]+/g, '-'));
    workbench.captureConsole(join(codeServer.dir, 'browser-console.log'));
    await options.beforeOpen?.(page, codeServer);
    const payload = typeof options.payload === 'function' ? options.payload(codeServer) : options.payload;
    await workbench.open(workbenchUrl(codeServer.server.url, codeServer.workspace, payload));
    return { workbench, page, browser, codeServer, close };
  } catch (err) {
    await close().catch(() => undefined);
    throw err;
  }
}
