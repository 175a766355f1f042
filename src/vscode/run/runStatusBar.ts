// The status bar item of running questions: live turn, sub-calls, tokens and cost; a click stops.
// It redraws on the run's tick, the moment the notification, the chat and the view redraw too.
import * as vscode from 'vscode';
import type { ActiveRun } from './activeRun';
import { formatLiveLine } from '../../shared/text/liveLine';
import { plural } from '../../shared/text/format';
import type { RunRegistry } from './runRegistry';

export class RunStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private readonly unsubscribe: () => void;
  private following: { run: ActiveRun; stop: () => void } | undefined;

  constructor(private readonly registry: RunRegistry) {
    this.item = vscode.window.createStatusBarItem('rlm.run', vscode.StatusBarAlignment.Left, 100);
    this.item.name = 'RLM run';
    this.item.command = 'rlm.stop';
    this.unsubscribe = registry.onDidChange(() => this.onRunsChanged());
  }

  private onRunsChanged(): void {
    const runs = this.registry.active();
    void vscode.commands.executeCommand('setContext', 'rlm.running', runs.length > 0);
    // Any run seen: "Ask Again without Cache" has a question to ask again.
    if (runs.length > 0) void vscode.commands.executeCommand('setContext', 'rlm.hasAsked', true);
    const latest = runs[runs.length - 1];
    if (this.following?.run !== latest) {
      this.following?.stop();
      this.following = latest ? { run: latest, stop: latest.onTick(() => this.render()) } : undefined;
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
    const line = formatLiveLine(latest.progress);
    this.item.text = `$(sync~spin) RLM ${line}${more}`;
    const others = runs.length > 1 ? ` ${plural(runs.length - 1, 'other question')} running.` : '';
    this.item.tooltip = `RLM is answering: ${latest.question}\n${line}, ${latest.progress.activity}.${others}\nClick to stop.`;
    this.item.accessibilityInformation = {
      label: `RLM is answering "${latest.question}": ${line.replace(/ · /g, ', ')}, ${latest.progress.activity}.${others} Activate to stop.`,
      role: 'button',
    };
    this.item.show();
  }

  dispose(): void {
    this.unsubscribe();
    this.following?.stop();
    this.item.dispose();
  }
}
