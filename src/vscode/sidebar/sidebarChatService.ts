// Carries out what the sidebar asks: runs questions in the current conversation (following each
// run into its chat entry), and reads or deletes the run history.
import type { KeySlot, NextStep } from '../../shared/nextStep';
import { runNextStep } from '../errors/userMessages';
import * as vscode from 'vscode';
import type { ChatEntry, ChatTarget, HistoryItem } from '../../shared/sidebarState';
import { folderScope, gatherWithConfirmation, pickFolder } from '../commands/askCommands';
import type { ConfirmationMemory } from '../commands/askCommands';
import { requireTrust } from '../commands/commandSupport';
import { fileContext } from '../context/fileTarget';
import { RunCancelledError } from '../../core/loop/loopErrors';
import type { RunOutcome } from '../../shared/runOutcomeView';
import { describeError } from '../errors/describeError';
import { describeOutcome, stepsOf } from '../errors/outcomeWording';
import { openRlmSetting, promptForPrice } from '../settings/priceSetting';
import { runModelsAndDepth } from '../../core/trajectory/runModels';
import { NoModelConfiguredError, TargetRefusedError } from '../errors/extensionErrors';
import { deleteHistoryFile, isInsideDirectory, listHistory } from '../history/historyIndex';
import type { RlmServices } from '../services/rlmServices';
import type { ActiveRun } from '../run/activeRun';
import type { RunResult } from '../../core/loop/loopTypes';
import { awaitTurn } from '../run/busyPrompt';
import { Conversation } from '../run/conversation';
import type { GatheredContext } from '../run/runLauncher';
import { readSettings } from '../settings/readSettings';
import type { RlmSettings } from '../settings/rlmSettings';
import { isModelConfigured } from '../settings/rlmSettings';
import type { SidebarActions } from './sidebarActions';
import type { SidebarStore } from './sidebarStore';
import { EntryFollower } from './entryFollower';
import { priorTurnsOf } from './chatPersistence';
import { openReference } from '../trajectory/referenceOpener';
import { noticeText } from '../../shared/text/untrustedText';

/** The answer's resolved citations, from the run's `references` record. */
function referencesOf(run: ActiveRun): NonNullable<ChatEntry['references']> {
  const record = run.records().find((r) => r.type === 'references' && r.runId === run.runId);
  if (record?.type !== 'references') return [];
  return record.references.map((r) => ({ path: r.path, line: r.line, ...(r.endLine !== undefined ? { endLine: r.endLine } : {}), text: r.text, ...(r.notebookCell ? { notebookCell: { ...r.notebookCell } } : {}) }));
}

export class SidebarChatService implements SidebarActions {
  private conversation: Conversation;
  private readonly controllers = new Map<string, AbortController>();
  private readonly runs = new Map<string, ActiveRun>();
  /** This conversation's finished runs: their views run the user's cells in the chat's REPL. */
  private readonly finishedRuns = new Map<string, ActiveRun>();
  private nextEntry = 0;

  constructor(
    private readonly services: RlmServices,
    private readonly store: SidebarStore,
    /** Re-reads the history list (a finished run has just been added to it). */
    private readonly refreshHistory: () => Promise<void>,
  ) {
    this.conversation = this.newConversation();
    // A conversation shown again after a reload goes on where it was: its answers are prior turns.
    this.conversation.restoreTurns(priorTurnsOf(store.entries));
    this.nextEntry = Math.max(0, ...store.entries.map((e) => Number(/^e(\d+)$/.exec(e.id)?.[1] ?? 0)));
  }

  private newConversation(): Conversation {
    return new Conversation({
      repl: () => this.services.replPool(),
      createBridgeRouter: async () => (await this.services.engine()).createBridgeRouter(),
    });
  }

  /** Follow-ups about a target already confirmed in this conversation are not asked about again. */
  private memoryFor(contextKey: string): ConfirmationMemory {
    const conversation = this.conversation;
    return { alreadyConfirmed: conversation.isConfirmed(contextKey), confirmed: () => conversation.markConfirmed(contextKey) };
  }

  private gatherFor(target: ChatTarget, settings: RlmSettings): { contextKey: string; gather: (signal: AbortSignal) => Promise<GatheredContext | undefined> } {
    if (target.kind === 'workspace') {
      const folders = vscode.workspace.workspaceFolders ?? [];
      if (folders.length === 0) throw new TargetRefusedError('workspace', 'no-workspace', 'Open a folder or workspace first: there is nothing to ask about.');
      const memory = this.memoryFor('workspace');
      return { contextKey: 'workspace', gather: (signal) => gatherWithConfirmation(folders.map((folder) => ({ folder })), 'the workspace', settings, signal, memory) };
    }
    const uri = vscode.Uri.parse(target.uri ?? '');
    if (target.kind === 'folder') {
      const scope = folderScope(uri);
      const contextKey = `folder:${uri.toString()}`;
      const memory = this.memoryFor(contextKey);
      return { contextKey, gather: (signal) => gatherWithConfirmation([scope], scope.label, settings, signal, memory) };
    }
    return { contextKey: `file:${uri.toString()}`, gather: async () => fileContext(uri, settings) };
  }

  async ask(question: string, target: ChatTarget): Promise<void> {
    const id = `e${++this.nextEntry}`;
    const entry: ChatEntry = {
      id,
      question,
      target,
      status: 'gathering',
      live: { turn: 0, subCalls: 0, inputTokens: 0, outputTokens: 0, costUsd: null, costUnknown: false, costLocal: false, activity: 'gathering the context' },
      streamingText: '',
      startedAt: Date.now(),
    };
    this.store.addEntry(entry);
    const controller = new AbortController();
    this.controllers.set(id, controller);
    try {
      requireTrust();
      const settings = readSettings();
      if (!isModelConfigured(settings)) throw new NoModelConfiguredError();
      const { contextKey, gather } = this.gatherFor(target, settings);
      const queued = (): void => {
        this.store.updateEntry(id, { status: 'queued', live: { ...entry.live, activity: 'waiting for the other question on this target' } });
      };
      if (!(await awaitTurn(this.services.registry, contextKey, question, queued, controller.signal))) {
        // Not asked: the person dismissed the choice or stopped the wait; it reads like any other stop.
        const outcome: RunOutcome = { tone: 'neutral', headline: 'Not sent: another question was running on this target', askAgain: true };
        this.store.updateEntry(id, { status: 'cancelled', live: { ...entry.live, activity: 'not sent' }, outcome, finishedAt: Date.now() });
        return;
      }
      if (this.store.entry(id)?.status === 'queued') this.store.updateEntry(id, { status: 'gathering', live: entry.live });
      const run = await this.services.launcher.start({ contextKey, question, settings, gather, conversation: this.conversation, conversationId: this.store.conversationId, signal: controller.signal });
      if (!run) {
        const outcome: RunOutcome = { tone: 'neutral', headline: 'Not sent: stopped by you before anything was sent', askAgain: true };
        this.store.updateEntry(id, { status: 'cancelled', live: { ...entry.live, activity: 'not sent' }, outcome, finishedAt: Date.now() });
        return;
      }
      this.runs.set(id, run);
      this.store.updateEntry(id, { status: 'running', runId: run.runId, live: { ...entry.live, ...run.progress }, ...(run.trajectoryPath ? { trajectoryPath: run.trajectoryPath } : {}) });
      const follower = new EntryFollower(run, (patch) => this.store.updateEntry(id, patch));
      // The answer as soon as its citations are resolved; the final figures when the run has ended
      // (the coverage strip reads the whole input again after the answer).
      const shown = await run.answered;
      this.showEnding(id, run, shown);
      const result = await run.result;
      follower.dispose();
      if (result !== shown) this.showEnding(id, run, result);
      void this.refreshHistory();
    } catch (error) {
      const message = describeError(error);
      if (message.severity === 'error') this.services.log.error(`Sidebar question failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      const cancelled = error instanceof vscode.CancellationError || controller.signal.aborted;
      const outcome: RunOutcome = cancelled
        ? { tone: 'neutral', headline: 'Stopped by you before anything was sent', askAgain: true }
        : { tone: message.severity === 'error' ? 'error' : 'warning', headline: 'Not started', detail: message.text, askAgain: true, ...stepsOf(message) };
      this.store.updateEntry(id, { status: cancelled ? 'cancelled' : 'error', outcome, finishedAt: Date.now() });
    } finally {
      this.controllers.delete(id);
      const run = this.runs.get(id);
      if (run) this.finishedRuns.set(id, run);
      this.runs.delete(id);
    }
  }

  /** The entry's ending: its outcome, answer or partial findings, unpriced models and references. */
  private showEnding(id: string, run: ActiveRun, result: RunResult): void {
    const outcome = describeOutcome({ status: result.status, ...(result.error ? { error: result.error } : {}), turns: run.turnsCompleted });
    // A loop that threw carries the typed error, which says more than the recorded kind.
    if (run.error !== undefined && result.status === 'error') Object.assign(outcome, { detail: describeError(run.error).text }, stepsOf(describeError(run.error)));
    const unpriced = run.tree.tree ? runModelsAndDepth(run.tree.tree).unpriced : [];
    const references = referencesOf(run);
    this.store.updateEntry(id, {
      status: result.status,
      outcome,
      ...(result.answer !== undefined ? { answer: result.answer } : {}),
      ...(result.answer === undefined && result.partial !== undefined ? { partial: result.partial } : {}),
      ...(unpriced.length ? { unpricedModels: unpriced } : {}),
      ...(references.length ? { references } : {}),
      finishedAt: Date.now(),
    });
  }

  stop(entry: ChatEntry): void {
    this.controllers.get(entry.id)?.abort(new RunCancelledError('stopped by the user'));
    this.runs.get(entry.id)?.stop();
  }

  async askAgain(entry: ChatEntry): Promise<void> {
    await this.ask(entry.question, entry.target);
  }

  async setPrice(entry: ChatEntry): Promise<void> {
    await promptForPrice(entry.unpricedModels ?? []);
  }

  async openSetting(setting: string): Promise<void> {
    await openRlmSetting(setting);
  }

  /** A view's "Ask again": the question goes in the box, the chat comes into view, nothing is sent yet. */
  async prefill(question: string): Promise<void> {
    this.store.prefill(question);
    await vscode.commands.executeCommand('rlm.chat.focus');
  }

  async pickFolder(): Promise<ChatTarget | undefined> {
    const uri = await pickFolder();
    if (!uri) return undefined;
    return { kind: 'folder', label: folderScope(uri).label, uri: uri.toString() };
  }

  async endConversation(): Promise<void> {
    const old = this.conversation;
    this.conversation = this.newConversation();
    this.finishedRuns.clear();
    await old.end();
  }

  async viewTrajectory(entry: ChatEntry): Promise<void> {
    const run = this.runs.get(entry.id) ?? this.finishedRuns.get(entry.id);
    if (run && this.services.views) {
      this.services.views.openLive(run);
      return;
    }
    if (!entry.trajectoryPath) throw new Error('This question has no recorded trajectory (it did not start a run).');
    await this.services.openTrajectory(entry.trajectoryPath);
  }

  async openReference(entry: ChatEntry, reference: NonNullable<ChatEntry['references']>[number]): Promise<void> {
    await openReference({ ...reference }, entry.trajectoryPath);
  }

  async copyText(text: string): Promise<void> {
    await vscode.env.clipboard.writeText(text);
    void vscode.window.setStatusBarMessage('RLM: answer copied', 2000);
  }

  async runNextStep(step: NextStep, keySlot: KeySlot | undefined): Promise<void> {
    await runNextStep(step, keySlot);
  }

  async configureModels(): Promise<void> {
    await vscode.commands.executeCommand('rlm.configureModels');
  }

  async listHistory(): Promise<HistoryItem[]> {
    // A file without its end is a run still going when that run is ours; otherwise it is incomplete.
    const running = new Set(this.services.registry.active().map((run) => run.runId));
    const items = await listHistory(this.services.trajectoryDirectory());
    return items.map((item) => (item.status === 'incomplete' && running.has(item.runId) ? { ...item, status: 'running' } : item));
  }

  async openHistoryItem(path: string): Promise<void> {
    if (!isInsideDirectory(this.services.trajectoryDirectory(), path)) throw new Error(`${path} is not in the run history folder.`);
    await this.services.openTrajectory(path);
  }

  async continueHistoryItem(path: string, fork: boolean): Promise<void> {
    if (!isInsideDirectory(this.services.trajectoryDirectory(), path)) throw new Error(`${path} is not in the run history folder.`);
    await vscode.commands.executeCommand(fork ? 'rlm.forkRun' : 'rlm.continueRun', vscode.Uri.file(path));
  }

  async deleteHistoryItem(path: string): Promise<boolean> {
    const go = await vscode.window.showWarningMessage('Delete this recorded run? The file is removed from disk.', { modal: true }, 'Delete');
    if (go !== 'Delete') return false;
    await deleteHistoryFile(this.services.trajectoryDirectory(), path);
    return true;
  }

  reportError(message: string, error: unknown): void {
    this.services.log.warn(`Sidebar: ${message}${error !== undefined ? ` (${error instanceof Error ? error.message : String(error)})` : ''}`);
    void vscode.window.showWarningMessage(noticeText(`RLM: ${message}`));
  }

  dispose(): void {
    for (const c of this.controllers.values()) c.abort();
    void this.conversation.end();
  }
}
