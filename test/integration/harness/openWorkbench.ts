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
