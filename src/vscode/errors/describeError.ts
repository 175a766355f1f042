// Typed errors become plain sentences with the next step here, at the edge, and nowhere else.
// Works on thrown errors and on the `{kind, message}` a finished run records.
import { BudgetExceededError, InvalidLimitError, RunCancelledError } from '../../core/loop/loopErrors';
import { ModelError } from '../../core/models/modelErrors';
import type { ModelErrorKind } from '../../core/models/modelErrors';
import type { LimitKind } from '../../core/trajectory/events';
import { RunBusyError } from '../run/runRegistry';
import { SettingsError } from '../settings/rlmSettings';
import { MissingApiKeyError, NoModelConfiguredError, TargetRefusedError, UntrustedWorkspaceError } from './extensionErrors';

/** Buttons a message may offer; the adapter maps each to a command. */
export type NextStep = 'setApiKey' | 'configureModels' | 'testConnection' | 'showLog' | 'openSettings' | 'manageTrust' | 'stop';

export interface UserMessage {
  text: string;
  steps: NextStep[];
  /** Warnings are shown as such; everything else is an error. */
  severity: 'error' | 'warning' | 'info';
}

const LIMIT_SETTING: Partial<Record<LimitKind, string>> = {
  iterations: 'rlm.maxIterations',
  depth: 'rlm.maxDepth',
  subCalls: 'rlm.maxSubCalls',
  costUsd: 'rlm.maxCostUsd',
};

/** `where` names the server and model when the error object carries them; a recorded run error has only its message. */
function modelSentence(kind: ModelErrorKind | string, where: string | undefined, detail: string): UserMessage {
  const server = where ? `The model server at ${where}` : 'The model server';
  const why = where ? ` (${detail})` : `: ${detail}`;
  switch (kind) {
    case 'auth':
      return { text: `${server} refused the key${why}. Set the API key for it.`, steps: ['setApiKey', 'configureModels'], severity: 'error' };
    case 'rate_limit':
      return { text: `${server} is rate-limiting requests${why}. Wait a minute and try again, or lower rlm.maxSubCalls.`, steps: ['openSettings'], severity: 'error' };
    case 'timeout':
      return { text: `${server} did not answer in time${why}. Check that it is running and not overloaded, then try again.`, steps: ['testConnection', 'configureModels'], severity: 'error' };
    case 'context_too_long':
      return { text: `The prompt was too long for the model${where ? ` at ${where}` : ''}${why}. Choose a model with a larger context window.`, steps: ['configureModels'], severity: 'error' };
    case 'server':
      return { text: `${server} failed${why}. Try again later.`, steps: ['showLog'], severity: 'error' };
    case 'connection':
      return { text: `Could not reach the model server${where ? ` at ${where}` : ''}${why}. Is it running, and is the base URL right?`, steps: ['testConnection', 'configureModels'], severity: 'error' };
    case 'config':
      return { text: `The model configuration cannot work: ${detail}.`, steps: ['configureModels', 'setApiKey'], severity: 'error' };
    case 'bad_request':
      return { text: `${server} rejected the request${why}. Check the model name.`, steps: ['configureModels', 'showLog'], severity: 'error' };
    case 'cancelled':
      return { text: 'The run was stopped.', steps: [], severity: 'info' };
    default:
      return { text: `The model${where ? ` at ${where}` : ''} failed${why}. Details are in the log.`, steps: ['showLog'], severity: 'error' };
  }
}

/** VS Code's models have no key or server to check: the detail already says what to do (consent, quota, another model). */
function languageModelSentence(error: ModelError): UserMessage {
  const text = `The VS Code language model ${error.model}: ${error.detail}`;
  switch (error.kind) {
    case 'cancelled':
      return { text: 'The run was stopped.', steps: [], severity: 'info' };
    case 'rate_limit':
      return { text, steps: ['openSettings'], severity: 'error' };
    case 'auth':
    case 'config':
    case 'context_too_long':
      return { text, steps: ['configureModels'], severity: 'error' };
    default:
      return { text: `${text}. Details are in the log.`, steps: ['showLog'], severity: 'error' };
  }
}

export function describeError(error: unknown): UserMessage {
  if (error instanceof NoModelConfiguredError) {
    return { text: 'No model is configured for RLM yet. Choose a model (GitHub Copilot’s or another VS Code language model with no key, or OpenAI, Anthropic, Ollama, ...) to start.', steps: ['configureModels'], severity: 'warning' };
  }
  if (error instanceof MissingApiKeyError) {
    return { text: `${error.message} Set the API key for it (it is kept in VS Code's secret storage), or choose a local model server.`, steps: ['setApiKey', 'configureModels'], severity: 'warning' };
  }
  if (error instanceof UntrustedWorkspaceError) {
    return {
      text: 'RLM is disabled because this workspace is not trusted: its settings could send your files and API key to another server. Trust the workspace to ask questions; opening recorded runs still works.',
      steps: ['manageTrust'],
      severity: 'warning',
    };
  }
  if (error instanceof TargetRefusedError) return { text: error.message, steps: error.reason === 'too-large' ? ['openSettings'] : [], severity: 'warning' };
  if (error instanceof RunBusyError) return { text: error.message, steps: ['stop'], severity: 'warning' };
  if (error instanceof SettingsError) return { text: `${error.message} Fix it in the settings.`, steps: ['openSettings'], severity: 'error' };
  if (error instanceof ModelError && error.provider === 'vscode') return languageModelSentence(error);
  if (error instanceof ModelError) return modelSentence(error.kind, `${error.endpoint} (model ${error.model})`, error.detail);
  if (error instanceof BudgetExceededError) return describeRunError({ kind: 'limit', message: error.message, limit: error.limitKind });
  if (error instanceof RunCancelledError) return { text: 'The run was stopped.', steps: [], severity: 'info' };
  if (error instanceof InvalidLimitError) return { text: `${error.message}. Fix it in the settings.`, steps: ['openSettings'], severity: 'error' };
  const message = error instanceof Error ? error.message : String(error);
  return { text: `RLM failed: ${message}. Details are in the log.`, steps: ['showLog'], severity: 'error' };
}

/** For the `error` a finished run records, which carries the kind but not the class. */
export function describeRunError(error: { kind: string; message: string; limit?: LimitKind }): UserMessage {
  // Records written before the RLM contract v1 carry class names ('BudgetExceededError') as kinds.
  if (error.limit !== undefined || error.kind === 'limit' || error.kind === 'BudgetExceededError') {
    const setting = error.limit ? LIMIT_SETTING[error.limit] : undefined;
    const raise = setting ? ` Raise ${setting} to let runs go further.` : '';
    return { text: `The run stopped at a limit: ${error.message}.${raise}`, steps: setting ? ['openSettings'] : [], severity: 'warning' };
  }
  const modelKinds = ['auth', 'rate_limit', 'timeout', 'context_too_long', 'server', 'connection', 'config', 'bad_request', 'bad_response'];
  if (modelKinds.includes(error.kind)) return modelSentence(error.kind, undefined, error.message);
  if (error.kind === 'cancelled' || error.kind === 'RunCancelledError') return { text: 'The run was stopped.', steps: [], severity: 'info' };
  return { text: `The run failed: ${error.message}. Details are in the log.`, steps: ['showLog'], severity: 'error' };
}
