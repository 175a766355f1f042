// Drives the VS Code workbench in a page the way a person would: palette, notifications, files,
// webviews, and a screenshot after each step for the CI artefacts.
import { appendFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FrameLocator, Locator, Page } from 'playwright-core';
import { screenshotsDir } from './outputPaths';

class WorkbenchTimeoutError extends Error {
  constructor(readonly what: string, readonly timeoutMs: number, readonly seen?: string[]) {
    super(`Timed out after ${timeoutMs} ms waiting for ${what}${seen && seen.length ? `; seen instead: ${seen.map((s) => JSON.stringify(s)).join(', ')}` : ''}`);
    this.name = 'WorkbenchTimeoutError';
  }
}

const PALETTE_INPUT = '.quick-input-widget .quick-input-box input';
const PALETTE_ROWS = '.quick-input-widget .quick-input-list .monaco-list-row';
const TOASTS = '.notifications-toasts .notification-toast';

export class Workbench {
  private shots = 0;

  constructor(
    readonly page: Page,
    /** Prefix of screenshot file names: the spec's name. */
    private readonly screenshotPrefix: string,
    readonly defaultTimeoutMs = 30_000,
  ) {}

  /** Sends the page's console errors and crashes to a log file next to the session. */
  captureConsole(logFile: string): void {
    this.page.on('console', (message) => {
      // Webview frames log their service worker's trouble (the cause of resources that fail to load) as plain logs.
      if (message.type() === 'error' || message.type() === 'warning' || /service worker/i.test(message.text())) {
        appendFileSync(logFile, `[${message.type()}] ${message.text()}${message.type() === 'error' ? ` (${message.location().url})` : ''}\n`);
      }
    });
    this.page.on('pageerror', (err) => appendFileSync(logFile, `[pageerror] ${err.stack ?? err.message}\n`));
  }

  /** Opens the workbench URL and waits until the editor, side bar and status bar are laid out. */
  async open(url: string): Promise<void> {
    await this.page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await this.page.locator('.monaco-workbench .part.statusbar').waitFor({ state: 'visible', timeout: 60_000 });
    await this.page.locator('.monaco-workbench .part.activitybar').waitFor({ state: 'visible', timeout: 60_000 });
  }

  /** Opens the command palette (F1) with the `>` prefix, ready for typing. */
  async openPalette(): Promise<Locator> {
    const input = this.page.locator(PALETTE_INPUT);
    const attempts = 3;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      await this.focusWorkbench();
      await this.page.keyboard.press('F1');
      try {
        await input.waitFor({ state: 'visible', timeout: 5000 });
        return input;
      } catch {
        // The key can be swallowed while the workbench is still restoring; try again.
      }
    }
    throw new WorkbenchTimeoutError('the command palette to open on F1', attempts * 5000);
  }

  /** A key press lands nowhere while nothing (or a webview) has focus: click the title bar first. */
  private async focusWorkbench(): Promise<void> {
    await this.page.locator('.monaco-workbench').click({ position: { x: 5, y: 5 }, force: true }).catch(() => undefined);
  }

  /** Types `query` into the palette and returns the labels of the listed commands. */
  async paletteEntries(query: string): Promise<string[]> {
    const input = await this.openPalette();
    // A webview taking focus as it draws can close the palette just after it opened: then the input
    // is never visible again, and filling it would wait out the whole timeout. Open it once more.
    await input.fill(`>${query}`, { timeout: 5000 }).catch(async () => {
      await this.page.keyboard.press('Escape');
      await (await this.openPalette()).fill(`>${query}`);
    });
    // The list filters asynchronously; wait until it shows rows (or settles empty).
    await this.page.locator(PALETTE_ROWS).first().waitFor({ state: 'visible', timeout: 5000 }).catch(() => undefined);
    return this.page.locator(`${PALETTE_ROWS} .label-name`).allInnerTexts();
  }

  /** Waits until the palette lists a command whose label is exactly `title` (e.g. "RLM: Ask RLM about this file"). */
  async findPaletteEntry(title: string, timeoutMs = this.defaultTimeoutMs): Promise<Locator> {
    const deadline = Date.now() + timeoutMs;
    let seen: string[] = [];
    while (Date.now() < deadline) {
      seen = await this.paletteEntries(title);
      const index = seen.findIndex((label) => label.replace(/\s+/g, ' ').trim() === title);
      if (index >= 0) return this.page.locator(PALETTE_ROWS).nth(index);
      // Extensions may still be activating; close and retry.
      await this.page.keyboard.press('Escape');
      await this.page.waitForTimeout(500);
    }
    throw new WorkbenchTimeoutError(`palette entry "${title}"`, timeoutMs, seen);
  }

  /** Runs a command by its palette title, as a user would. */
  async runCommandFromPalette(title: string, timeoutMs = this.defaultTimeoutMs): Promise<void> {
    const row = await this.findPaletteEntry(title, timeoutMs);
    // A webview taking focus as it draws (a run's panel at its end) can close the palette under the
    // pointer: open it again once.
    await row.click({ timeout: 5000 }).catch(async () => {
      await this.page.keyboard.press('Escape');
      await (await this.findPaletteEntry(title, timeoutMs)).click();
    });
    await this.page.locator(PALETTE_INPUT).waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
  }

  /**
   * Runs a command that shows a quick pick and waits until its rows are visible. A webview taking focus
   * back as the previous pick closes (Escape returns focus to the editor's webview) can close the new
   * pick at once: the command is run again, once, in that case.
   */
  async openQuickPickFromPalette(title: string, timeoutMs = this.defaultTimeoutMs): Promise<void> {
    const firstRow = this.page.locator(PALETTE_ROWS).first();
    await this.runCommandFromPalette(title, timeoutMs);
    const shown = await firstRow.waitFor({ state: 'visible', timeout: 5000 }).then(() => true, () => false);
    if (shown) return;
    await this.runCommandFromPalette(title, timeoutMs);
    await firstRow.waitFor({ state: 'visible', timeout: timeoutMs });
  }

  /** Waits for a notification toast containing `text`; returns it (its buttons are inside). */
  async waitForNotification(text: string | RegExp, timeoutMs = this.defaultTimeoutMs): Promise<Locator> {
    const toast = this.page.locator(TOASTS).filter({ hasText: text }).first();
    try {
      await toast.waitFor({ state: 'visible', timeout: timeoutMs });
    } catch {
      const seen = await this.page.locator(TOASTS).allInnerTexts();
      throw new WorkbenchTimeoutError(`a notification matching ${String(text)}`, timeoutMs, seen);
    }
    return toast;
  }

  /** Opens a workspace file by name through Quick Open (Ctrl+P). */
  async openFile(relativePath: string): Promise<void> {
    await this.focusWorkbench();
    await this.page.keyboard.press('Control+P');
    const input = this.page.locator(PALETTE_INPUT);
    await input.waitFor({ state: 'visible', timeout: this.defaultTimeoutMs });
    await input.fill(relativePath);
    const name = relativePath.split('/').pop() ?? relativePath;
    // The row named exactly so: Quick Open's fuzzy match also lists recently opened files whose
    // long paths merely contain the letters in order, and puts them first.
    const exactName = new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    const row = this.page.locator(PALETTE_ROWS).filter({ has: this.page.locator('.label-name', { hasText: exactName }) }).first();
    await row.waitFor({ state: 'visible', timeout: this.defaultTimeoutMs });
    await row.click();
    await this.page.locator(`.tabs-container .tab[aria-label*="${name}"]`).first().waitFor({ state: 'visible', timeout: this.defaultTimeoutMs });
  }

  /**
   * The content frame of the webview that contains `selector`. A webview is two nested iframes
   * (iframe.webview.ready, then iframe#active-frame); several may exist, so each is searched.
   */
  async getWebviewFrame(selector: string, timeoutMs = this.defaultTimeoutMs): Promise<FrameLocator> {
    const deadline = Date.now() + timeoutMs;
    let reloadAt = Date.now() + timeoutMs / 2;
    let reloads = 0;
    const outer = this.page.locator('iframe.webview.ready');
    while (Date.now() < deadline) {
      const count = await outer.count();
      for (let i = 0; i < count; i++) {
        const inner = this.page.frameLocator('iframe.webview.ready').nth(i).frameLocator('iframe#active-frame');
        if ((await inner.locator(selector).count().catch(() => 0)) > 0) return inner;
      }
      // code-server serves every webview from one origin, so they share one service-worker scope;
      // now and then a new webview's host frame never gets its worker and never creates its content
      // frame (its body cannot even be read). Desktop VS Code gives each webview its own origin.
      // A person would run "Developer: Reload Webviews"; so does this, only for that state: a page of
      // ours that shows the wrong thing is not reloaded, and still fails the spec. A reload can hang
      // the same way (seen once in CI: still unreadable 15 s later), so it is tried again every 5 s,
      // at most three times, within the same time limit.
      if (reloads < 3 && Date.now() >= reloadAt && (await this.webviewTexts(40)).some((text) => text.includes('(unreadable'))) {
        reloads += 1;
        reloadAt = Date.now() + 5000;
        console.log(`a webview had no content frame ${Math.round((Date.now() - deadline + timeoutMs) / 1000)} s after it was looked for (code-server's shared service worker): running Developer: Reload Webviews (${reloads} of 3)`);
        await this.runCommandFromPalette('Developer: Reload Webviews');
      }
      await this.page.waitForTimeout(250);
    }
    throw new WorkbenchTimeoutError(`a webview containing ${selector} (${await outer.count()} webviews open)`, timeoutMs, await this.webviewTexts());
  }

  /** What each open webview shows (its first characters), for an error that says what was there instead. */
  async webviewTexts(maxChars = 300): Promise<string[]> {
    const count = await this.page.locator('iframe.webview.ready').count();
    const texts: string[] = [];
    for (let i = 0; i < count; i++) {
      const body = this.page.frameLocator('iframe.webview.ready').nth(i).frameLocator('iframe#active-frame').locator('body');
      const text = await body.innerText({ timeout: 2000 }).catch((error: unknown) => `(unreadable: ${String(error).split('\n')[0]})`);
      texts.push(`webview ${i}: ${text.replace(/\s+/g, ' ').slice(0, maxChars)}`);
    }
    return texts;
  }

  /** Saves test-output/screenshots/<spec>-<nn>-<step>.png and returns its path. */
  async screenshot(step: string): Promise<string> {
    this.shots += 1;
    const name = `${this.screenshotPrefix}-${String(this.shots).padStart(2, '0')}-${step.replace(/[^A-Za-z0-9_-]+/g, '-')}.png`;
    await mkdir(screenshotsDir(), { recursive: true });
    const path = join(screenshotsDir(), name);
    await this.page.screenshot({ path });
    return path;
  }
}
