// "Ask Again without Cache" and "Clear Sub-call Cache": the user's controls over cached sub-call answers.
import * as vscode from 'vscode';
import type { RlmServices } from '../services/rlmServices';
import type { ActiveRun } from '../run/activeRun';
import { readSettings } from '../settings/readSettings';
import { registerSafeCommand, requireTrust, runAndFollow } from './commandSupport';

/** Re-asks the latest question about the same input, sending every sub-call again and caching the fresh answers. */
async function askAgainWithoutCache(services: RlmServices): Promise<ActiveRun | undefined> {
  requireTrust();
  const last = services.launcher.lastRequest;
  if (!last) {
    void vscode.window.showInformationMessage('RLM: ask a question first; this command asks the latest one again with fresh sub-call answers.');
    return undefined;
  }
  const { conversation: _conversation, signal: _signal, ...request } = last;
  services.prewarmRepl();
  return runAndFollow(services, { ...request, settings: readSettings(), cache: 'refresh' }, `RLM (without cache): ${request.question}`);
}

async function clearSubCallCache(services: RlmServices): Promise<void> {
  const settings = readSettings();
  const engine = await services.engine();
  const cache = engine.createSubCallCache({ dir: services.subCallCacheDir(), maxBytes: settings.subCallCache.maxBytes });
  const entries = cache.entryCount;
  cache.clear();
  void vscode.window.showInformationMessage(
    entries === 0 ? 'RLM: the sub-call cache of this workspace was already empty.' : `RLM: cleared ${entries} cached sub-call ${entries === 1 ? 'answer' : 'answers'} of this workspace.`,
  );
}

export function registerCacheCommands(services: RlmServices): vscode.Disposable[] {
  return [
    registerSafeCommand(services, 'rlm.askAgainWithoutCache', () => askAgainWithoutCache(services)),
    registerSafeCommand(services, 'rlm.clearSubCallCache', () => clearSubCallCache(services)),
  ];
}
