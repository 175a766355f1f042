// Issue 31, item 9 (the chat view's part) and item 10 (History): used with the keyboard alone.
// "RLM: Focus on Chat View" puts the caret in the question box; the conversation is one Tab stop (the
// arrow keys move within it), so the question box stays a few Tabs away however many answers and
// links there are; the reference links' focus ring is drawn in the theme's focus colour, checked on
// screen in Dark Modern and in High Contrast; History items are one row with icon actions and a
// context menu.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FrameLocator } from 'playwright-core';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { chatEntry } from '../../harness/chatDriver';
import { openWorkbench } from '../../harness/openWorkbench';
import { contrastRatio, countColour, decodePng } from '../../harness/pngPixels';
import type { Workbench } from '../../harness/workbench';

function respond(request: FakeModelRequest): FakeResponse {
  const asked = request.messages.filter((m) => m.role === 'assistant').length;
  if (asked === 0) return 'Look.\n```repl\nprint(context[:40])\n```';
  return '```repl\nFINAL("withRetry is at src/retry.ts:16 and its options at src/retry.ts:2.")\n```';
}

/** What has keyboard focus in the chat's page: a test id, "entries:<kind>" inside the conversation, or a tag. */
async function focused(chat: FrameLocator): Promise<string> {
  return chat.locator('body').evaluate(() => {
    const active = document.activeElement as HTMLElement | null;
    if (!active || active === document.body || !document.hasFocus()) return '(nothing)';
    if (active.closest('[data-testid="entries"]')) return `entries:${active.className || active.tagName.toLowerCase()}`;
    return active.dataset.testid ?? active.id ?? active.tagName.toLowerCase();
  });
}

async function waitForFocus(chat: FrameLocator, want: string, what: string): Promise<void> {
  let seen = '';
  for (let i = 0; i < 50; i++) {
    seen = await focused(chat);
    if (seen === want) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  assert.fail(`${what}: focus is on ${seen}, not ${want}`);
}

/** The theme's focus colour and the sidebar's background, as the page resolves them. */
async function themeColours(chat: FrameLocator): Promise<{ focus: [number, number, number]; background: [number, number, number] }> {
  const [focus, background] = await chat.locator('body').evaluate(() =>
    ['--vscode-focusBorder', '--vscode-sideBar-background'].map((name) => {
      const probe = document.createElement('span');
      probe.style.color = `var(${name})`;
      document.body.append(probe);
      const rgb = getComputedStyle(probe).color.match(/\d+/g)!.slice(0, 3).map(Number);
      probe.remove();
      return rgb;
    }),
  );
  return { focus: focus as [number, number, number], background: background as [number, number, number] };
}

/** Moves to the first reference link with the keyboard only, and checks its ring on screen. */
async function checkReferenceRing(workbench: Workbench, chat: FrameLocator, theme: string): Promise<void> {
  const { page } = workbench;
  // A click puts the page's focus in the view (after the theme picker it is in the workbench), as a person does.
  await chat.locator('#tab-chat').click();
  await chat.locator('#tab-chat').focus();
  // Tab into the conversation (one stop), then arrows to the first reference link.
  for (let i = 0; i < 6 && !(await focused(chat)).startsWith('entries:'); i++) await page.keyboard.press('Tab');
  assert.match(await focused(chat), /^entries:/, `${theme}: Tab reaches the conversation`);
  await page.keyboard.press('Home');
  for (let i = 0; i < 12 && (await focused(chat)) !== 'entries:reference-link'; i++) await page.keyboard.press('ArrowDown');
  assert.equal(await focused(chat), 'entries:reference-link', `${theme}: the arrow keys reach a reference link`);
  const link = chat.locator('.reference-link:focus');
  const style = await link.evaluate((n) => {
    const s = getComputedStyle(n);
    return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), colour: s.outlineColor.match(/\d+/g)!.slice(0, 3).map(Number) };
  });
  const colours = await themeColours(chat);
  assert.notEqual(style.style, 'none', `${theme}: a focus ring is drawn`);
  assert.ok(style.width >= 1, `${theme}: ring width ${style.width}`);
  assert.deepEqual(style.colour, colours.focus, `${theme}: the ring is the theme's focusBorder`);
  const ratio = contrastRatio(colours.focus, colours.background);
  assert.ok(ratio >= 3, `${theme}: focusBorder ${colours.focus.join(',')} on ${colours.background.join(',')} is ${ratio.toFixed(2)}:1, under 3:1`);
  // On screen: the row around the link shows the ring's colour when focused, and not when not.
  const row = chat.locator('.references li', { has: chat.locator('.reference-link:focus') });
  const focusedPixels = countColour(decodePng(await row.screenshot()), colours.focus, 30);
  await workbench.screenshot(`reference-ring-${theme}`);
  await page.keyboard.press('ArrowDown');
  const unfocusedPixels = countColour(decodePng(await chat.locator('.references li').first().screenshot()), colours.focus, 30);
  assert.ok(focusedPixels >= 40, `${theme}: only ${focusedPixels} pixels of the ring's colour around the focused link`);
  assert.ok(unfocusedPixels < focusedPixels / 4, `${theme}: ${unfocusedPixels} ring-coloured pixels without focus`);
}

/**
 * Waits for entry `n` to be answered. On this shared 2-core machine the sandbox sometimes misses its
 * 60 s start-up under load ("the REPL did not become ready"); the user's remedy, Ask again, is used
 * once then, and said in the test's output. Any other failure fails the test.
 */
async function waitForAnswer(workbench: Workbench, chat: FrameLocator, n: number): Promise<void> {
  const deadline = Date.now() + 420_000;
  let retried = false;
  while (Date.now() < deadline) {
    const text = await chatEntry(chat, n).innerText().catch(() => '');
    if (/Answered/.test(text)) return;
    if (/did not become ready/.test(text) && !retried) {
      retried = true;
      console.log(`entry ${n}: the REPL missed its start-up under load; pressing Ask again`);
      await workbench.screenshot(`repl-start-missed-${n}`);
      await chatEntry(chat, n).locator('[data-testid="ask-again"]').click();
      n += 1;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  assert.fail(`entry ${n} was not answered: ${await chatEntry(chat, n).innerText().catch(() => '(no entry)')}`);
}

/** Preferences: Color Theme, as a person picks one (the picker says "Dark High Contrast", "Dark Modern"). */
async function pickColourTheme(workbench: Workbench, name: 'High Contrast' | 'Dark Modern'): Promise<void> {
  await workbench.runCommandFromPalette('Preferences: Color Theme');
  const input = workbench.page.locator('.quick-input-widget input');
  await input.fill(name);
  const row = workbench.page.locator('.quick-input-widget .monaco-list-row').filter({ hasText: name, hasNotText: 'Light' }).first();
  await row.waitFor({ timeout: 15_000 });
  await row.click();
}

test('keyboard only: focus lands in the question box, one Tab stop for the conversation, visible focus rings, History rows with icon actions', { timeout: 900_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond });
  t.after(() => server.close());
  const { workbench, page } = await openWorkbench(t, {
    userSettings: {
      'rlm.root.provider': 'openai',
      'rlm.root.baseUrl': server.baseUrl,
      'rlm.root.model': 'fake-model',
      'rlm.confirmBeforeSending': false,
      'workbench.colorTheme': 'Default Dark Modern',
    },
  });
  await workbench.openFile('src/retry.ts');

  // "RLM: Focus on Chat View": the keys typed next go into the question box.
  await workbench.runCommandFromPalette('RLM: Focus on Chat View');
  const chat = await workbench.getWebviewFrame('[data-testid="question"]', 60_000);
  await waitForFocus(chat, 'question', 'after RLM: Focus on Chat View');
  await page.keyboard.type('Where is withRetry?');
  await page.keyboard.press('Enter');
  await workbench.screenshot('focus-command-typed-question');
  await waitForAnswer(workbench, chat, 0);
  assert.equal(await chat.locator('article.entry').last().locator('[data-testid="references"] .reference-link').count(), 2, 'the answer\'s two citations are links in its references');
  await workbench.screenshot('focus-command-typed-question-answered');

  // Again from the editor, after an answer: back in the question box.
  await workbench.openFile('src/retry.ts');
  await workbench.runCommandFromPalette('RLM: Focus on Chat View');
  await waitForFocus(chat, 'question', 'RLM: Focus on Chat View from the editor');
  const asked = await chat.locator('article.entry').count();
  await page.keyboard.type('And where are its options?');
  await page.keyboard.press('Enter');
  await chatEntry(chat, asked).waitFor({ timeout: 30_000 });
  await waitForAnswer(workbench, chat, asked);

  // Tab order from the tab list: the conversation is one stop whatever it holds; the question box follows.
  const controlsInConversation = await chat.locator('[data-testid="entries"] a[href], [data-testid="entries"] button, [data-testid="entries"] vscode-button').count();
  assert.ok(controlsInConversation >= 8, `two answers hold ${controlsInConversation} links and buttons`);
  await chat.locator('#tab-chat').focus();
  const stops: string[] = [];
  for (let i = 0; i < 10; i++) {
    await page.keyboard.press('Tab');
    const now = await focused(chat);
    stops.push(now);
    if (now === 'question') break;
  }
  assert.equal(stops[stops.length - 1], 'question', `Tab never reached the question box: ${stops.join(' → ')}`);
  assert.equal(stops.filter((s) => s.startsWith('entries:')).length, 1, `the conversation is one Tab stop: ${stops.join(' → ')}`);
  assert.ok(stops.length <= 6, `the question box is ${stops.length} Tabs from the tab list: ${stops.join(' → ')}`);
  // Entering the conversation lands on the newest answer's first control.
  const entryStop = stops.find((s) => s.startsWith('entries:'));
  assert.ok(entryStop, stops.join(' → '));

  await checkReferenceRing(workbench, chat, 'dark-modern');

  // High Contrast: the same ring in that theme's colours.
  await pickColourTheme(workbench, 'High Contrast');
  await chat.locator('body.vscode-high-contrast').waitFor({ state: 'attached', timeout: 30_000 });
  await checkReferenceRing(workbench, chat, 'high-contrast');
  await pickColourTheme(workbench, 'Dark Modern');
  await chat.locator('body.vscode-dark').waitFor({ state: 'attached', timeout: 30_000 });

  // History: each item is one row, the question and icon actions with labels and tooltips; no text buttons.
  await chat.locator('[data-testid="tab-history"]').click();
  const items = chat.locator('[data-testid="history-item"]');
  await items.nth(1).waitFor({ state: 'visible', timeout: 30_000 });
  const item = items.first();
  await item.hover();
  for (const [id, label] of [['history-continue', 'Continue this run…'], ['history-fork', 'Fork from a turn…'], ['history-delete', 'Delete this run…']] as const) {
    const button = item.locator(`[data-testid="${id}"]`);
    assert.equal(await button.getAttribute('aria-label'), label);
    assert.equal(await button.getAttribute('title'), label);
    assert.equal((await button.innerText()).trim(), '', `${id} is an icon, not text`);
  }
  assert.equal(await item.locator('button', { hasText: /Continue…|Fork…|Delete|Open/ }).count(), 0, 'no text buttons');
  const row = await item.locator('.history-row').evaluate((n) => {
    const boxes = [...n.children].map((c) => c.getBoundingClientRect());
    const buttons = [...n.querySelectorAll('.icon-button')].map((c) => c.getBoundingClientRect());
    return { rowHeight: n.getBoundingClientRect().height, tops: buttons.map((b) => Math.round(b.top)), titleTop: Math.round(boxes[0]!.top), titleHeight: boxes[0]!.height, iconsVisible: getComputedStyle(n.querySelector('.history-actions')!).opacity };
  });
  assert.equal(new Set(row.tops).size, 1, `the icons are on one row: ${row.tops.join(', ')}`);
  assert.ok(row.rowHeight <= 28, `the question and its actions fit one row (${row.rowHeight}px)`);
  assert.equal(row.iconsVisible, '1', 'shown on hover');
  await workbench.screenshot('history-row-hover');
  // Keyboard: focus on the question shows its actions too.
  await chat.locator('#tab-history').focus();
  await items.nth(1).locator('.history-question').focus();
  assert.equal(await items.nth(1).locator('.history-actions').evaluate((n) => getComputedStyle(n).opacity), '1', 'shown on keyboard focus');
  // The context menu holds every action, as VS Code's own views do.
  await item.click({ button: 'right' });
  const menu = page.locator('.context-view .monaco-menu');
  await menu.waitFor({ state: 'visible', timeout: 15_000 });
  const entries = (await menu.locator('.action-label').allInnerTexts()).map((s) => s.trim()).filter(Boolean);
  for (const want of ['Open', 'Continue this run...', 'Fork from this turn...', 'Delete...']) assert.ok(entries.includes(want), `${want} missing from the context menu: ${entries.join(' | ')}`);
  await workbench.screenshot('history-context-menu');
  // Its Open opens the run (the router checks the path like any message from the page).
  await menu.locator('.action-label', { hasText: /^Open$/ }).click();
  await workbench.getWebviewFrame('#run-header', 60_000);
  await workbench.screenshot('history-opened-from-context-menu');
});
