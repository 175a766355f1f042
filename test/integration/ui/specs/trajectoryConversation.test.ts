// A reference log of six questions in one persistent session, in the trajectory webview in real
// headless Chromium (the production bundle, HTML and CSP, answered by the real host session): every
// question and answer with its figures in the header, and a follow-up's turns opened in place.
// Needs `npm run build`. Screenshots go to test-output/screenshots/trajectoryConversation-*.png.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { readTrajectory } from '../../../../src/core/trajectory/trajectoryReader';
import { recordedSourceInfo } from '../../../../src/vscode/trajectory/recordedRun';
import { SESSION_ANSWERS, SESSION_QUESTIONS, referenceSessionLog } from '../../../fixtures/trajectories/referenceSession';
import { launchChromium } from '../../harness/chromium';
import { screenshotsDir } from '../../harness/outputPaths';
import { tempDir } from '../../../unit/core/trajectory/tempDir';
import { openStubView } from '../../../unit/webview/trajectory/stubHostPage';

let browser: Browser;
const dir = tempDir('ui-conversation');

before(async () => {
  browser = await launchChromium();
  mkdirSync(screenshotsDir(), { recursive: true });
});
after(async () => {
  await browser?.close();
});

describe('a conversation in the trajectory view', { timeout: 120_000 }, () => {
  test('shows every question and answer with its figures, and opens a follow-up\'s turns', async () => {
    const path = join(dir, 'session.jsonl');
    writeFileSync(path, referenceSessionLog());
    const read = await readTrajectory(path);
    const context = await browser.newContext({ viewport: { width: 1280, height: 1100 } });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const host = await openStubView(page, { root: () => read.runs[0]!, runs: () => read.runs, info: recordedSourceInfo(read, 'session.jsonl') });
    try {
      await page.waitForSelector('.conversation-run');
      const items = page.locator('.conversation-run');
      assert.equal(await items.count(), 6);
      for (let i = 0; i < 6; i++) {
        const text = await items.nth(i).innerText();
        assert.ok(text.includes(SESSION_QUESTIONS[i]!.prompt as string), `question ${i + 1}: ${text}`);
        assert.ok(text.includes(`Answer: ${SESSION_ANSWERS[i]}`), `answer ${i + 1}: ${text}`);
        assert.match(text, /Answered · \d turns? · /);
      }
      assert.match(await items.nth(1).innerText(), /120 in · 8 out/);
      assert.match(await items.nth(1).innerText(), /REPL kept from question 1 \(found words\)/);
      assert.match(await page.locator('.conversation-head').innerText(), /Conversation · 6 questions[\s\S]*Total: 120 in · 8 out · ≥ \$0\.00030 · 1 sub-call · /i);
      await page.screenshot({ path: join(screenshotsDir(), 'trajectoryConversation-header.png') });
      // The sixth question's turns open in place, from the host.
      await items.nth(5).locator('details.conversation-turns > summary').click();
      await page.waitForSelector('.conversation-run:nth-child(6) .conversation-turns section.cell');
      assert.match(await items.nth(5).locator('.conversation-turns').innerText(), /y = y \* 3/);
      await items.nth(5).scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(screenshotsDir(), 'trajectoryConversation-follow-up-turns.png') });
      assert.deepEqual(errors, [], 'no uncaught errors in the page');
      assert.deepEqual(await page.evaluate('window.__cspViolations'), [], 'no CSP violations');
    } finally {
      host.cleanup();
      await context.close();
    }
  });
});
