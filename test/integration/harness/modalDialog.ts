// VS Code's modal dialogs (showWarningMessage with modal: true) in the web workbench: wait for one,
// read what it says, and press one of its buttons.
import type { Workbench } from './workbench';

/** Waits for the modal, returns its whole text (message and detail), and clicks the button named `name`. */
export async function acceptModal(workbench: Workbench, name: string): Promise<string> {
  const dialog = workbench.page.locator('.monaco-dialog-box');
  await dialog.waitFor({ state: 'visible', timeout: 30_000 });
  const text = await dialog.innerText();
  await dialog.getByRole('button', { name, exact: true }).click();
  await dialog.waitFor({ state: 'hidden', timeout: 10_000 });
  return text;
}
