// What every command shares: the trust check, error reporting, and following a started run.
import * as vscode from 'vscode';
import { UntrustedWorkspaceError } from '../errors/extensionErrors';
import { describeError } from '../errors/describeError';
import type { RlmServices } from '../services/rlmServices';
import type { ActiveRun } from '../run/activeRun';
import { followWithProgress, notifyRunEnded } from '../run/runNotifications';
import type { RunRequest } from '../run/runLauncher';
import { openRlmSetting } from '../settings/priceSetting';
import { reportError, showUserMessage } from '../errors/userMessages';
import { awaitTurn } from '../run/busyPrompt';
import { RunCancelledError } from '../../core/loop/loopErrors';
import { isModelConfigured } from '../settings/rlmSettings';

/** Asking sends workspace files to a model and runs model-written code: only in trusted workspaces. */
export function requireTrust(): void {
  if (!vscode.workspace.isTrusted) throw new UntrustedWorkspaceError();
}

/** Registers a command whose failures become sentences (and log entries), never silent rejections. */
export function registerSafeCommand(services: RlmServices, id: string, handler: (...args: unknown[]) => unknown): vscode.Disposable {
  return vscode.commands.registerCommand(id, async (...args: unknown[]) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof vscode.CancellationError) return undefined;
      reportError(services.log, error, id);
      return undefined;
    }
  });
}

/**
 * Starts a run with its live view open from the moment it is asked: the view shows the question, the
 * models and `about` while the engine loads, the REPL starts and the input is read (seconds, the first
 * time), then follows the run. The view's Stop gives up the question while it starts. A question that
 * is not asked after all (declined, failed to start) takes its view with it.
 */
export async function startWithView(services: RlmServices, request: RunRequest, about: string | undefined): Promise<ActiveRun | undefined> {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(request.signal?.reason);
  if (request.signal?.aborted) onAbort();
  request.signal?.addEventListener('abort', onAbort, { once: true });
  const { settings } = request;
  const rootModel = isModelConfigured(settings) ? settings.root.model : undefined;
  const pending = services.views?.openStarting({
    question: request.question,
    ...(request.conversationId ? { conversationId: request.conversationId } : {}),
    ...(rootModel ? { rootModel, subModel: settings.sub?.model || rootModel } : {}),
    ...(about ? { target: about } : {}),
    stop: () => controller.abort(new RunCancelledError('stopped by the user')),
  });
  let run: ActiveRun | undefined;
  try {
    run = await services.launcher.start({ ...request, signal: controller.signal });
  } catch (error) {
    pending?.abandon();
    throw error;
  } finally {
    request.signal?.removeEventListener('abort', onAbort);
  }
  if (!run) {
    pending?.abandon();
    return undefined;
  }
  if (pending) pending.attach(run);
  else services.views?.openLive(run);
  return run;
}

/** Starts a run, opens its live trajectory view, follows it in a notification and reports the end. */
export async function runAndFollow(services: RlmServices, request: RunRequest, title: string, about?: string): Promise<ActiveRun | undefined> {
  // A target that is running already: queue behind it or stop it, keeping the question.
  if (!(await awaitTurn(services.registry, request.contextKey, request.question))) return undefined;
  const run = await startWithView(services, request, about);
  if (!run) return undefined;
  services.log.info(`Run ${run.runId} started: ${request.question}${run.trajectoryPath ? ` (recording to ${run.trajectoryPath})` : ''}`);
  void followWithProgress(run, title).then(async (result) => {
    services.log.info(`Run ${run.runId} ended: ${result.status}${result.error ? ` (${result.error.kind}: ${result.error.message})` : ''}`);
    if (run.error !== undefined) {
      services.log.error(`Run ${run.runId} failed: ${run.error instanceof Error ? (run.error.stack ?? run.error.message) : String(run.error)}`);
      await showUserMessage(describeError(run.error));
      return;
    }
    await notifyRunEnded(run, result, { openTrajectory: (p) => services.openTrajectory(p), askAgain: (q) => services.prefillChat(q), openSetting: openRlmSetting });
  });
  return run;
}

export function firstWorkspaceFolders(): readonly vscode.WorkspaceFolder[] {
  return vscode.workspace.workspaceFolders ?? [];
}

export async function askQuestion(about: string): Promise<string | undefined> {
  const question = await vscode.window.showInputBox({
    title: `Ask RLM about ${about}`,
    prompt: 'Your question. The content stays in a local Python sandbox; the model explores it with code.',
    placeHolder: 'e.g. Which functions write to the database, and where are they called?',
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() === '' ? 'Type a question.' : undefined),
  });
  return question?.trim() || undefined;
}
