// Typed errors become plain sentences with the next step here, at the edge, and nowhere else.
// Works on thrown errors and on the `{kind, message}` a finished run records.
import { BudgetExceededError, InvalidLimitError, RunCancelledError } from '../../core/loop/loopErrors';
import { errorKindOf } from '../../core/errorKind';
import { ModelError } from '../../core/models/modelErrors';
import type { ModelErrorKind } from '../../core/models/modelErrors';
import type { LimitKind, RecordedRunError } from '../../core/trajectory/events';
import { MissingApiKeyError, NoModelConfiguredError, RunBusyError, TargetRefusedError, UntrustedWorkspaceError } from './extensionErrors';
import { SettingsError } from '../settings/rlmSettings';
import type { KeySlot, NextStep } from '../../shared/nextStep';

export type { NextStep } from '../../shared/nextStep';

export interface UserMessage {
  text: string;
  /** Buttons for the next step the text names; every surface shows them (src/shared/nextStep.ts). */
  steps: NextStep[];
  /** The server whose key "Set API key..." is about, when the error names it. */
  keySlot?: KeySlot;
  /** Warnings are shown as such; everything else is an error. */
  severity: 'error' | 'warning' | 'info';
}

/** Each limit as a person names it, and the setting that raises it (when there is one). */
export const LIMITS: Record<LimitKind, { name: string; setting?: string }> = {
  iterations: { name: 'turn limit', setting: 'rlm.maxIterations' },
  depth: { name: 'depth limit', setting: 'rlm.maxDepth' },
  subCalls: { name: 'sub-call limit', setting: 'rlm.maxSubCalls' },
  totalTokens: { name: 'token limit' },
  costUsd: { name: 'cost limit', setting: 'rlm.maxCostUsd' },
  wallTime: { name: 'time limit' },
  consecutiveErrors: { name: 'limit of failed turns in a row' },
};

/** "Iteration limit reached: 30 of 30" → "30 of 30": the figures of a limit message, when it has them. */
export function limitFigures(message: string): string | undefined {
  return /:\s*([^:]+ of [^:]+?)\.?$/.exec(message)?.[1]?.trim();
}

/** "The run reached the turn limit (30 of 30)." */
export function limitReached(limit: LimitKind | undefined, message: string): string {
  const figures = limitFigures(message);
  return `The run reached the ${limit ? LIMITS[limit].name : 'limit'}${figures ? ` (${figures})` : ''}.`;
}

// What Node and the SDKs say about a failed connection, in words a person reads.
const NETWORK_WORDS: Array<[RegExp, string]> = [
  [/\bECONNREFUSED\b/, 'the connection was refused'],
  [/\bENOTFOUND\b|\bEAI_AGAIN\b/, 'the host name was not found'],
  [/\bETIMEDOUT\b/, 'the connection timed out'],
  [/\bECONNRESET\b|\bEPIPE\b|\bUND_ERR_SOCKET\b|\bUND_ERR_CLOSED\b/, 'the connection was dropped'],
  [/\bEHOSTUNREACH\b|\bENETUNREACH\b/, 'the network cannot reach the host'],
];

/** A model error's detail without Node's and the SDKs' internal phrases ("fetch failed", "Connection error.", error codes). */
export function plainDetail(detail: string): string {
  const words = NETWORK_WORDS.find(([code]) => code.test(detail))?.[1];
  let text = detail
    .replace(/\(\s*(?:fetch failed|Connection error\.?|E[A-Z_]{4,}|UND_ERR_[A-Z_]+)\s*\)/g, '')
    .replace(/:?\s*\b(?:fetch failed|Connection error\.?)/gi, '')
    .replace(/\bconnect\s+E[A-Z_]{4,}(?:\s+[\w.:[\]-]+)?/g, '')
    .replace(/\b(?:E[A-Z]{4,}[A-Z_]*|UND_ERR_[A-Z_]+)\b/g, '')
    .replace(/\s+([.,;])/g, '$1')
    .replace(/\.{2,}/g, '.')
    .replace(/\s{2,}/g, ' ')
    .trim()
    .replace(/^[.:;,]\s*/, '');
  if (words && !/connection/i.test(text)) {
    text = /^could not connect\b/i.test(text) ? text.replace(/^could not connect\b\.?/i, `could not connect: ${words}.`) : text ? `${words}: ${text}` : words;
  }
  return text || 'the connection failed';
}

/** `where` names the server and model when the error object carries them; a recorded run error has only its message. */
function modelSentence(kind: ModelErrorKind | string, where: string | undefined, rawDetail: string, keySlot?: KeySlot): UserMessage {
  const message = modelSentenceRaw(kind, where, rawDetail);
  return { ...message, text: tidy(message.text), ...(keySlot && message.steps.includes('setApiKey') ? { keySlot } : {}) };
}

/** No "?." or ".." where two sentences meet. */
export function tidy(text: string): string {
  return text.replace(/([?!])\./g, '$1').replace(/\.{2,}/g, '.').replace(/\s{2,}/g, ' ');
}

function modelSentenceRaw(kind: ModelErrorKind | string, where: string | undefined, rawDetail: string): UserMessage {
  // The client's own hint repeats the question this sentence asks anyway.
  const detail = plainDetail(rawDetail).replace(/\s*Is the server running and the base URL right\?$/, '').replace(/\.$/, '');
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
function languageModelSentence(error: ModelFields): UserMessage {
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

type ModelFields = Pick<ModelError, 'kind' | 'endpoint' | 'model' | 'detail'> & { provider?: string };

/** A ModelError from either bundle: its kind, where, and the detail after the "where". */
function asModelError(error: unknown): ModelFields | undefined {
  if (error instanceof ModelError) return error;
  const e = error as Partial<Record<'kind' | 'endpoint' | 'model' | 'detail' | 'provider', unknown>> | null;
  if (typeof e !== 'object' || e === null) return undefined;
  if (typeof e.kind !== 'string' || typeof e.endpoint !== 'string' || typeof e.model !== 'string' || typeof e.detail !== 'string') return undefined;
  return { kind: e.kind as ModelErrorKind, endpoint: e.endpoint, model: e.model, detail: e.detail, ...(typeof e.provider === 'string' ? { provider: e.provider } : {}) };
}

export function describeError(error: unknown): UserMessage {
  if (error instanceof NoModelConfiguredError) {
    return { text: 'No model is configured for RLM yet. Choose a model (GitHub Copilot’s or another VS Code language model with no key, or OpenAI, Anthropic, Ollama, ...) to start.', steps: ['configureModels'], severity: 'warning' };
  }
  if (error instanceof MissingApiKeyError) {
    return {
      text: `${error.message} Set the API key for it (it is kept in VS Code's secret storage), or choose a local model server.`,
      steps: ['setApiKey', 'configureModels'],
      severity: 'warning',
      keySlot: { provider: error.setting.provider, baseUrl: error.setting.baseUrl },
    };
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
  // Errors thrown inside the engine bundle (dist/engine.js) are instances of that bundle's copies of
  // these classes, so they are recognised by their declared kind and fields, never by instanceof.
  const model = asModelError(error);
  if (model?.provider === 'vscode') return languageModelSentence(model);
  if (model) return modelSentence(model.kind, `${model.endpoint} (model ${model.model})`, model.detail, model.provider ? { provider: model.provider, baseUrl: model.endpoint } : undefined);
  const kind = errorKindOf(error);
  if (error instanceof BudgetExceededError || (kind === 'limit' && typeof (error as { limitKind?: unknown }).limitKind === 'string')) {
    return describeRunError({ kind: 'limit', message: (error as Error).message, limit: (error as BudgetExceededError).limitKind });
  }
  if (error instanceof RunCancelledError || kind === 'cancelled') return { text: 'The run was stopped.', steps: [], severity: 'info' };
  if (kind === 'sandbox_violation') return SANDBOX_VIOLATION;
  // "Narrow it: ... or raise the limit": the limit is rlm.contextLimitMb.
  if (kind === 'context_too_large') return { text: (error as Error).message, steps: ['openSettings'], severity: 'warning' };
  // The sandbox holds fewer than two layers (sandboxStrength.ts): its message is already the one sentence
  // naming what is missing and the setting that accepts it.
  if (kind === 'sandbox' && (error as { name?: unknown }).name === 'WeakSandboxError') return { text: (error as Error).message, steps: ['openSettings'], severity: 'warning' };
  if (error instanceof InvalidLimitError) return { text: `${error.message}. Fix it in the settings.`, steps: ['openSettings'], severity: 'error' };
  const message = error instanceof Error ? error.message : String(error);
  return { text: tidy(`Something went wrong: ${message.replace(/\.$/, '')}. Details are in the log.`), steps: ['showLog'], severity: 'error' };
}

/** The REPL process broke the host's protocol: said plainly, since the model's code may have tried to escape. */
const SANDBOX_VIOLATION: UserMessage = {
  text:
    'The run was ended because its Python sandbox sent the extension something the sandbox never sends: the code the model wrote may have tried to get out of it. ' +
    'The sandbox process was stopped and nothing it sent was used. Review the run\'s cells before trusting anything it printed.',
  steps: ['showLog'],
  severity: 'error',
};

/** For the `error` a finished run records, which carries the kind but not the class. */
export function describeRunError(error: RecordedRunError): UserMessage {
  // Records written before the RLM contract v1 carry class names ('BudgetExceededError') as kinds.
  if (error.limit !== undefined || error.kind === 'limit' || error.kind === 'BudgetExceededError') {
    const setting = error.limit ? LIMITS[error.limit].setting : undefined;
    const raise = setting ? ` Raise ${setting} to let runs go further.` : '';
    return { text: `${limitReached(error.limit, error.message)}${raise}`, steps: setting ? ['openSettings'] : [], severity: 'warning' };
  }
  const modelKinds = ['auth', 'rate_limit', 'timeout', 'context_too_long', 'server', 'connection', 'config', 'bad_request', 'bad_response'];
  if (modelKinds.includes(error.kind)) return modelSentence(error.kind, undefined, error.message);
  if (error.kind === 'cancelled' || error.kind === 'RunCancelledError') return { text: 'The run was stopped.', steps: [], severity: 'info' };
  if (error.kind === 'sandbox_violation') return SANDBOX_VIOLATION;
  if (error.kind === 'context_too_large') return { text: error.message, steps: ['openSettings'], severity: 'warning' };
  return { text: tidy(`The run failed: ${plainDetail(error.message).replace(/\.$/, '')}. Details are in the log.`), steps: ['showLog'], severity: 'error' };
}
