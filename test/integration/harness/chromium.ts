// Launches Debian's Chromium headless through playwright-core (which downloads no browser).
// Without these flags Chromium stalls on the closed network trying to reach Google services.
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

const CHROMIUM_PATH = process.env.RLM_CHROMIUM ?? '/usr/bin/chromium';

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

class BrowserMissingError extends Error {
  constructor(readonly executablePath: string) {
    super(`Chromium was not found at ${executablePath}. Install it with: bash scripts/installSystemPackages.sh (or set RLM_CHROMIUM)`);
    this.name = 'BrowserMissingError';
  }
}

/**
 * Playwright gives every launch a fresh temporary profile (its own --user-data-dir) and deletes it
 * on close; it also kills the browser when this process exits, and Chromium quits when its
 * debugging pipe closes, so a killed test process cannot leave it behind.
 */
export async function launchChromium(options: { headless?: boolean } = {}): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) throw new BrowserMissingError(CHROMIUM_PATH);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: options.headless ?? process.env.RLM_HEADED !== '1',
    args: CHROMIUM_FLAGS,
    timeout: 60_000,
  });
}
