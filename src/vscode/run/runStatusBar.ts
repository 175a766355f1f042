// The status bar item of running questions: live turn, sub-calls, tokens and cost; a click stops.
import * as vscode from 'vscode';
import type { ActiveRun } from './activeRun';
import { formatLiveLine } from '../../shared/format';
import type { RunRegistry } from './runRegistry';

const REFRESH_MS = 250;

export class RunStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly registry: RunRegistry) {
    this.item = vscode.window.createStatusBarItem('rlm.run', vscode.StatusBarAlignment.Left, 100);
    this.item.name = 'RLM run';
    this.item.command = 'rlm.stop';
    this.unsubscribe = registry.onDidChange(() => this.onRunsChanged());
  }

  private onRunsChanged(): void {
    const running = this.registry.active().length > 0;
    void vscode.commands.executeCommand('setContext', 'rlm.running', running);
    // Any run seen: "Ask Again without Cache" has a question to ask again.
    if (running) void vscode.commands.executeCommand('setContext', 'rlm.hasAsked', true);
    if (running && !this.timer) {
      // Polling at a fixed rate keeps the item cheap however fast events arrive.
      this.timer = setInterval(() => this.render(), REFRESH_MS);
    } else if (!running && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
    this.render();
  }

  private render(): void {
    const runs = this.registry.active();
    const latest: ActiveRun | undefined = runs[runs.length - 1];
    if (!latest) {
      this.item.hide();
      return;
    }
    const more = runs.length > 1 ? ` (+${runs.length - 1})` : '';
    this.item.text = `$(sync~spin) RLM ${formatLiveLine(latest.progress)}${more}`;
    this.item.tooltip = `RLM is answering: ${latest.question}\n${latest.progress.activity}\nClick to stop.`;
    // Screen readers hear a sentence, not the spinner icon's name and the figures' middle dots.
    this.item.accessibilityInformation = {
      label: `RLM is answering "${latest.question}": ${formatLiveLine(latest.progress).replace(/ · /g, ', ')}, ${latest.progress.activity}.${more ? ` ${runs.length - 1} more running.` : ''} Activate to stop.`,
      role: 'button',
    };
    this.item.show();
  }

  dispose(): void {
    this.unsubscribe();
    if (this.timer) clearInterval(this.timer);
    this.item.dispose();
  }
}
