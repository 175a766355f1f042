// Issue 16, item 10 (the webviews' part): the sidebar's tabs are a real tab list (arrow keys, Home and
// End, aria-controls naming a panel that exists), focus stays on a tab across the re-render a switch
// causes, actions are real buttons (no a[role=button]), the status bar item has accessibility
// information, and a high-contrast theme draws borders where colour alone separated things.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startFakeOpenAIServer } from '../../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelRequest, FakeResponse } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { askInChat, chatEntry, openChat, waitForLiveLine } from '../../harness/chatDriver';
import { openWorkbench } from '../../harness/openWorkbench';

function respond(request: FakeModelRequest): FakeResponse {
  const turn = request.messages.filter((m) => m.role === 'assistant').length + 1;
  if (turn === 1) return 'Look.\n```repl\nprint(len(str(context)))\n```';
  return { text: 'FINAL(done)', latencyMs: 6_000 };
}

test('sidebar tabs take the keyboard, actions are buttons, the status bar is described, high contrast has borders', { timeout: 300_000 }, async (t) => {
  const server = await startFakeOpenAIServer({ respond });
  t.after(() => server.close());
  const { workbench, page } = await openWorkbench(t, {
    userSettings: {
      'rlm.root.provider': 'openai',
      'rlm.root.baseUrl': server.baseUrl,
      'rlm.root.model': 'fake-model',
      'rlm.confirmBeforeSending': false,
      'workbench.colorTheme': 'Default High Contrast',
    },
  });
  const chat = await openChat(workbench);

  // The tab list: each tab controls a panel that exists; arrows, Home and End move selection and focus.
  const tabs = chat.locator('[role="tab"]');
  assert.equal(await tabs.count(), 2);
  for (const id of ['chat', 'history']) {
    assert.equal(await chat.locator(`#tab-${id}`).getAttribute('aria-controls'), `panel-${id}`);
    assert.equal(await chat.locator(`#panel-${id}[role="tabpanel"]`).count(), 1, `panel-${id} exists`);
  }
  await chat.locator('#tab-chat').focus();
  await page.keyboard.press('ArrowRight');
  await chat.locator('#tab-history[aria-selected="true"]').waitFor({ timeout: 10_000 });
  assert.equal(await chat.locator('#tab-history').evaluate((n) => n === document.activeElement), true, 'focus is on History after the re-render');
  assert.equal(await chat.locator('#tab-history').getAttribute('tabindex'), '0');
  assert.equal(await chat.locator('#tab-chat').getAttribute('tabindex'), '-1', 'one tab stop for the list');
  await page.keyboard.press('Home');
  await chat.locator('#tab-chat[aria-selected="true"]').waitFor({ timeout: 10_000 });
  await page.keyboard.press('End');
  await chat.locator('#tab-history[aria-selected="true"]').waitFor({ timeout: 10_000 });
  await page.keyboard.press('ArrowRight');
  await chat.locator('#tab-chat[aria-selected="true"]').waitFor({ timeout: 10_000 });
  assert.equal(await chat.locator('#tab-chat').evaluate((n) => n === document.activeElement), true, 'arrows wrap around');

  // A run: its status bar item is described for screen readers, and the chat's actions are buttons.
  await askInChat(workbench, chat, 'How long is the context?');
  await waitForLiveLine(chat, 0, /turn 2/);
  const item = page.locator('.statusbar-item').filter({ hasText: /RLM turn/ }).first();
  const label = (await item.getAttribute('aria-label')) ?? (await item.locator('[aria-label]').first().getAttribute('aria-label')) ?? '';
  assert.match(label, /RLM is answering "How long is the context\?": turn 2, .*Activate to stop\./);
  await workbench.screenshot('high-contrast-running');
  await waitForLiveLine(chat, 0, /Answered/);
  assert.equal(await chat.locator('a[role="button"]').count(), 0, 'no links posing as buttons');
  assert.ok((await chatEntry(chat, 0).locator('button').count()) >= 2, 'View trajectory and Copy answer are buttons');

  // High contrast: an entry is separated by a contrast border, not by colour alone.
  const border = await chatEntry(chat, 0).evaluate((n) => {
    const style = getComputedStyle(n);
    // The theme's contrast border colour, resolved the same way for comparison.
    const probe = document.createElement('span');
    probe.style.color = 'var(--vscode-contrastBorder)';
    document.body.append(probe);
    const contrast = getComputedStyle(probe).color;
    probe.remove();
    return { width: style.borderBottomWidth, colour: style.borderBottomColor, style: style.borderBottomStyle, contrast, hc: document.body.classList.contains('vscode-high-contrast') };
  });
  assert.equal(border.hc, true, 'the webview knows it is in a high-contrast theme');
  assert.notEqual(border.style, 'none');
  assert.notEqual(border.width, '0px');
  assert.equal(border.colour, border.contrast, 'the border is the theme\'s contrast border');
  await workbench.screenshot('high-contrast-answered');
});
