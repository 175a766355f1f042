// The editor's side of busyTarget.ts: a quick pick offering to queue the new question or stop the
// running one (it closes by itself when the running one ends), then a cancellable notification
// while the question waits, which also closes by itself when its turn comes.
import * as vscode from 'vscode';
import type { BusyAnswer } from './busyTarget';
import { waitForTurn } from './busyTarget';
import type { RunRegistry } from './runRegistry';

function shorten(text: string, max = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function choose(question: string): (runningQuestion: string, freed: AbortSignal) => Promise<BusyAnswer> {
  return (runningQuestion, freed) =>
    new Promise((resolve) => {
      const pick = vscode.window.createQuickPick<vscode.QuickPickItem & { answer: 'queue' | 'stop' }>();
      pick.title = `"${shorten(runningQuestion)}" is still running on this target`;
      pick.placeholder = `Your question is kept: "${shorten(question)}"`;
      pick.ignoreFocusOut = true;
      pick.items = [
        { label: '$(watch) Ask when it ends', description: 'queue your question behind it', answer: 'queue' },
        { label: '$(debug-stop) Stop it and ask now', description: 'its findings so far stay in its trajectory', answer: 'stop' },
      ];
      let settled = false;
      const settle = (answer: BusyAnswer): void => {
        if (settled) return;
        settled = true;
        freed.removeEventListener('abort', onFreed);
        resolve(answer);
        pick.dispose();
      };
      const onFreed = (): void => settle(undefined);
      freed.addEventListener('abort', onFreed, { once: true });
      pick.onDidAccept(() => settle(pick.selectedItems[0]?.answer));
      pick.onDidHide(() => settle(undefined));
      pick.show();
    });
}

/**
 * Waits until `contextKey` is free for `question`, asking the person what to do when it is not.
 * `onWaiting` hears when the question is queued (the sidebar shows it). False: not to be asked.
 */
export async function awaitTurn(registry: RunRegistry, contextKey: string, question: string, onWaiting?: () => void, signal?: AbortSignal): Promise<boolean> {
  if (!registry.isBusy(contextKey)) return true;
  const waiting = new AbortController();
  const stopWaiting = (): void => waiting.abort();
  signal?.addEventListener('abort', stopWaiting, { once: true });
  let progressShown = false;
  try {
    return await waitForTurn({
      registry,
      contextKey,
      choose: choose(question),
      signal: waiting.signal,
      onWaiting: (answer) => {
        onWaiting?.();
        progressShown = true;
        void vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `RLM: "${shorten(question)}" ${answer === 'stop' ? 'starts once the other question has stopped' : 'waits for the other question on this target'}`, cancellable: true },
          async (_progress, token) => {
            token.onCancellationRequested(stopWaiting);
            // The notification closes when the wait ends, whichever way.
            await new Promise<void>((resolve) => {
              if (waiting.signal.aborted) resolve();
              waiting.signal.addEventListener('abort', () => resolve(), { once: true });
            });
          },
        );
      },
    });
  } finally {
    signal?.removeEventListener('abort', stopWaiting);
    if (progressShown) waiting.abort();
  }
}
