// Extension entry point. Activation registers contributions only: the engine (loop, model SDKs,
// REPL host) loads from dist/engine.js on the first run, and the webviews load when shown.
import { moduleLoadStartedAt } from './activationClock';
import * as vscode from 'vscode';
import { registerAgentTool } from './agentTool/rlmAskTool';
import { registerChatParticipant } from './chat/rlmChatParticipant';
import { trackActiveFile } from './context/activeTarget';
import { registerAskCommands } from './commands/askCommands';
import { registerContinueCommands } from './commands/continueCommands';
import { registerModelCommands } from './commands/modelCommands';
import { registerRunCommands } from './commands/runCommands';
import { registerCacheCommands } from './commands/cacheCommands';
import { RlmServices } from './services/rlmServices';
import { registerSidebar } from './sidebar/registerSidebar';
import { registerTrajectoryViews } from './trajectory/registerTrajectoryViews';

/** What activate() returns: used by the extension-host tests to reach the running services. */
export interface RlmExtensionApi {
  readonly services: RlmServices;
  /** Milliseconds from the start of loading dist/extension.js to the end of activate(). */
  readonly activationMs: number;
  /** Milliseconds activate() itself took. */
  readonly activateCallMs: number;
}

export function activate(context: vscode.ExtensionContext): RlmExtensionApi {
  const started = performance.now();
  const log = vscode.window.createOutputChannel('RLM', { log: true });
  const services = new RlmServices(context, log);
  services.views = registerTrajectoryViews(context, { log, askAgain: (question) => services.prefillChat(question), onOpened: () => services.prewarmReplSoon() });
  context.subscriptions.push(
    log,
    services,
    ...registerAskCommands(services),
    ...registerContinueCommands(services),
    ...registerModelCommands(services),
    ...registerRunCommands(services),
    ...registerCacheCommands(services),
    ...registerSidebar(services),
    trackActiveFile(),
    ...registerChatParticipant(services),
    ...registerAgentTool(services),
  );
  const ended = performance.now();
  const activationMs = ended - moduleLoadStartedAt;
  const activateCallMs = ended - started;
  log.info(`RLM activated in ${activationMs.toFixed(1)} ms (module load + activate; activate() alone ${activateCallMs.toFixed(1)} ms)${vscode.workspace.isTrusted ? '' : '; untrusted workspace: asking is disabled'}`);
  return { services, activationMs, activateCallMs };
}

export function deactivate(): void {}
