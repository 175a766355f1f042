// "Continue this run..." and "Fork from this turn...": the VS Code side of `rlm continue`. The record is
// hostile: its input is read again only from inside the workspace folders and after the user confirmed
// the paths (continuePlan.ts); models and limits are the settings'. Its cells are replayed in the
// sandbox with every sub-call answered from the record, and the follow-up asked in that session (or the
// root takes over at a turn).
import * as vscode from 'vscode';
import { replayPlanOf } from '../../core/continuation/replayPlan';
import { describeCurrentModels, describeRecordedModels, replayNoticeLine } from '../../core/continuation/recordedModels';
import type { ReplayInput } from '../../core/continuation/replayPlan';
import type { RunNode } from '../../core/trajectory/treeTypes';
import type { RlmServices } from '../services/rlmServices';
import type { ActiveRun } from '../run/activeRun';
import type { RunRequest } from '../run/runLauncher';
import { readSettings } from '../settings/readSettings';
import { isModelConfigured } from '../settings/rlmSettings';
import { NoModelConfiguredError } from '../errors/extensionErrors';
import { firstWorkspaceFolders, registerSafeCommand, requireTrust, runAndFollow, startWithView } from './commandSupport';
import { targetText } from '../trajectory/runHeaderProjection';
import { batchContinuation, confirmRecordedInput, locateRecordedInput, RunUnfinishedError } from './continuePlan';

/** Arguments for scripts and tests: skips the prompts. */
interface ContinueOptions {
  question?: string;
  fromTurn?: number;
  allowDivergence?: boolean;
  /** The user's cell to run once the run is replayed (Run your cell in a replay). */
  code?: string;
}

type Mode = 'continue' | 'fork' | 'session';

function optionsOf(value: unknown): ContinueOptions {
  if (typeof value !== 'object' || value === null) return {};
  const v = value as Record<string, unknown>;
  return {
    ...(typeof v.question === 'string' ? { question: v.question } : {}),
    ...(typeof v.fromTurn === 'number' ? { fromTurn: v.fromTurn } : {}),
    ...(v.allowDivergence === true ? { allowDivergence: true } : {}),
    ...(typeof v.code === 'string' ? { code: v.code } : {}),
  };
}

async function pickRecord(arg: unknown): Promise<vscode.Uri | undefined> {
  if (arg instanceof vscode.Uri) return arg;
  // A History item (its inline action, or its context menu: the webview item's data) names its file.
  if (typeof arg === 'object' && arg !== null && typeof (arg as { trajectoryPath?: unknown }).trajectoryPath === 'string') {
    return vscode.Uri.file((arg as { trajectoryPath: string }).trajectoryPath);
  }
  const picked = await vscode.window.showOpenDialog({ canSelectMany: false, filters: { 'RLM trajectory': ['jsonl'] }, openLabel: 'Continue this run' });
  return picked?.[0];
}

/** The open workspace's folders on disk: the only places a record's input may be read again from. */
function onDiskWorkspaceFolders(): { folders: string[]; folderNames: string[] } {
  const local = firstWorkspaceFolders().filter((f) => f.uri.scheme === 'file');
  return { folders: local.map((f) => f.uri.fsPath), folderNames: local.map((f) => f.name) };
}

async function confirmModal(message: string, detail: string, accept: string): Promise<boolean> {
  return (await vscode.window.showWarningMessage(message, { modal: true, detail }, accept)) === accept;
}

const WORDS: Record<Mode, { action: string; accept: string }> = {
  continue: { action: 'Continue this run', accept: 'Read and continue' },
  fork: { action: 'Fork this run', accept: 'Read and fork' },
  session: { action: 'Replay this run for your cell', accept: 'Read and replay' },
};

async function chooseTurn(run: RunNode): Promise<number | undefined> {
  const items = run.turns.map((t) => ({ label: `Turn ${t.turn}`, description: t.cells[0]?.code.split('\n').find((l) => l.trim())?.slice(0, 80) ?? '', turn: t.turn }));
  const picked = await vscode.window.showQuickPick(items, { title: 'Fork from this turn: turns before it are replayed, the root takes over here', ignoreFocusOut: true });
  return picked?.turn;
}

async function continueRun(services: RlmServices, arg: unknown, options: ContinueOptions, mode: Mode): Promise<ActiveRun | undefined> {
  requireTrust();
  const settings = readSettings();
  if (!isModelConfigured(settings)) throw new NoModelConfiguredError();
  const uri = await pickRecord(arg);
  if (!uri) return undefined;
  // The reader (and the zod schemas it checks records with) is loaded on use, not at activation.
  const { readTrajectory } = await import('../../core/trajectory/trajectoryReader');
  const run = (await readTrajectory(uri.fsPath)).tree;
  if (!run) throw new Error(`${vscode.workspace.asRelativePath(uri)} holds no run to continue.`);
  let batches: ReturnType<typeof batchContinuation>;
  try {
    batches = batchContinuation(run, mode, options.fromTurn);
  } catch (error) {
    if (error instanceof RunUnfinishedError) throw new Error(`${vscode.workspace.asRelativePath(uri)} ${error.message}`);
    throw error;
  }
  // A record outside the workspace is refused before any question is asked (see continuePlan.ts).
  const deps = { ...onDiskWorkspaceFolders(), confirm: confirmModal };
  locateRecordedInput(run, deps);
  const fork = mode === 'fork';
  const fromTurn = fork ? (options.fromTurn ?? (await chooseTurn(run))) : mode === 'session' ? undefined : (options.fromTurn ?? batches.takeUpAt);
  if (fork && fromTurn === undefined) return undefined;
  const question =
    mode === 'session' ? `Your cells, in a replay of: ${run.question}` :
    // Interrupted while waiting for its batch: the same question goes on from that turn.
    batches.takeUpAt !== undefined ? run.question :
    options.question ??
    (await vscode.window.showInputBox({
      title: fork ? `Fork at turn ${fromTurn}` : 'Continue this run',
      prompt: fork ? 'The question the root goes on with from this turn.' : 'Your follow-up. The recorded cells are replayed first (sub-calls from the record, nothing billed).',
      value: fork ? run.question : '',
      ignoreFocusOut: true,
      validateInput: (value) => (value.trim() === '' ? 'Type a question.' : undefined),
    }))?.trim();
  if (!question) return undefined;
  const plan = replayPlanOf(run, fromTurn);
  // The paths, their size and the models are shown in a modal; nothing is read before the user agrees.
  const gatherPlan = await confirmRecordedInput(run, settings, WORDS[mode], deps);
  if (!gatherPlan) return undefined;
  const current = describeCurrentModels(settings.root, settings.sub ?? settings.root);
  services.log.info(`${WORDS[mode].action} (${vscode.workspace.asRelativePath(uri)}): ${replayNoticeLine(plan.turns.reduce((n, t) => n + t.cells.length, 0), plan.turns.length, current, describeRecordedModels(run.config))}`);
  if (batches.takeUpAt !== undefined) services.log.info(`The recorded run was waiting for a provider batch at turn ${batches.takeUpAt}: its results are read from the provider (on the endpoint configured now), not sent again.`);
  const replay: ReplayInput = {
    plan,
    from: { mode: mode === 'session' ? 'session' : fromTurn !== undefined ? 'fork' : 'continue', trajectory: vscode.workspace.asRelativePath(uri), runId: run.runId, question: run.question, ...(fromTurn !== undefined ? { fromTurn } : {}), allowDivergence: options.allowDivergence ?? false },
  };
  const request = {
    contextKey: `continue:${uri.toString()}`,
    question,
    settings,
    gather: async () => {
      const plan = await gatherPlan();
      return { source: { kind: 'plan' as const, plan }, target: plan.target };
    },
    replay,
    ...(batches.recorded.length ? { recordedBatches: batches.recorded } : {}),
  };
  const about = run.target ? targetText(run.target) : undefined;
  if (mode === 'session') return replayForCell(services, request, options.code, about);
  return runAndFollow(services, request, `RLM: ${question}`, about);
}

/** Replays the run into a new REPL (its view opens), then runs the user's cell there. */
async function replayForCell(services: RlmServices, request: RunRequest, code: string | undefined, about: string | undefined): Promise<ActiveRun | undefined> {
  const active = await startWithView(services, request, about);
  if (!active) return undefined;
  services.log.info(`Run ${active.runId} replays ${request.replay?.from.trajectory ?? 'a record'} for the user's cells`);
  const result = await active.result;
  if (result.status !== 'completed') {
    const why = result.error ? `${result.error.message}` : `it ended ${result.status}`;
    throw new Error(`The run could not be replayed, so your cell did not run: ${why}`);
  }
  if (code?.trim()) await active.userCells?.run(code);
  return active;
}

export function registerContinueCommands(services: RlmServices): vscode.Disposable[] {
  return [
    registerSafeCommand(services, 'rlm.continueRun', (arg, opts) => continueRun(services, arg, optionsOf(opts), 'continue')),
    registerSafeCommand(services, 'rlm.forkRun', (arg, opts) => continueRun(services, arg, optionsOf(opts), 'fork')),
    registerSafeCommand(services, 'rlm.runCellInReplay', (arg, opts) => continueRun(services, arg, optionsOf(opts), 'session')),
  ];
}
