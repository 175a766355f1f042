// Drives the RLM sidebar chat in a workbench the way a person does: open it, type a question and
// press Enter, read an entry. Shared by the UI specs of the chat.
import type { FrameLocator, Locator } from 'playwright-core';
import type { Workbench } from './workbench';

/** Opens the chat view and returns its frame (found by the question box). */
export async function openChat(workbench: Workbench): Promise<FrameLocator> {
  await workbench.runCommandFromPalette('RLM: Focus on Chat View');
  return workbench.getWebviewFrame('[data-testid="question"]', 60_000);
}

export async function askInChat(workbench: Workbench, chat: FrameLocator, question: string): Promise<void> {
  const box = chat.locator('vscode-textarea textarea');
  await box.click();
  await box.fill(question);
  await box.press('Enter');
  await workbench.page.waitForTimeout(200);
}

/** The nth entry (0-based) of the conversation. */
export function chatEntry(chat: FrameLocator, n: number): Locator {
  return chat.locator('article.entry').nth(n);
}

/** Waits until entry `n`'s live line matches `text`, and returns the line's text. */
export async function waitForLiveLine(chat: FrameLocator, n: number, text: RegExp, timeoutMs = 120_000): Promise<string> {
  const line = chatEntry(chat, n).locator('[data-testid="live-line"]').filter({ hasText: text });
  try {
    await line.waitFor({ state: 'visible', timeout: timeoutMs });
  } catch (error) {
    const seen = await chatEntry(chat, n).innerText().catch(() => '(no entry)');
    throw new Error(`entry ${n} never matched ${String(text)}; it shows: ${JSON.stringify(seen)}`, { cause: error });
  }
  return line.innerText();
}

/** The status bar item of a running question ("RLM turn 2 · …"), or '' when none shows. */
export async function statusBarText(workbench: Workbench): Promise<string> {
  const item = workbench.page.locator('#rlm\\.run, [id="rlm-tools.rlm-vscode.rlm.run"], .statusbar-item').filter({ hasText: /^\s*RLM / });
  if (!(await item.count())) return '';
  // The item goes when the run ends, possibly between the count and the read: a read of a gone item
  // would wait for the locator's whole default timeout (30 s), so it is short and reads as gone.
  return (await item.first().innerText({ timeout: 1000 }).catch(() => '')).trim();
}
