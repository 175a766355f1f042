// The model and limit options `rlm ask` and `rlm eval` share: their flags, their parsing into a
// ModelChoice pair and RunLimits, and the ModelConfig built from a choice. Keys never come from a
// flag value: only the name of an environment variable may be given. UsageError (a bad command
// line, exit code 2) is every command's.
import type { RunLimits } from '../../core/loop/loopTypes';
import { isLocalBaseUrl } from '../../core/models/endpoint';
import { VSCODE_PROVIDER_OUTSIDE_EDITOR } from '../../core/models/modelErrors';
import type { ModelConfig, ProviderKind } from '../../core/models/modelTypes';

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ModelChoice {
  provider: ProviderKind;
  baseUrl?: string;
  model: string;
  /** The environment variable the key is read from. */
  keyEnv: string;
  contextWindowTokens?: number;
  /** --stall-timeout, --max-response-mb and --response-timeout, the same for the root and the sub model. */
  stallTimeoutMs?: number;
  maxResponseBytes?: number;
  responseTimeoutMs?: number;
}

export const MODEL_OPTIONS = {
  provider: { type: 'string' },
  'base-url': { type: 'string' },
  model: { type: 'string', short: 'm' },
  'api-key-env': { type: 'string' },
  'context-window': { type: 'string' },
  'sub-provider': { type: 'string' },
  'sub-base-url': { type: 'string' },
  'sub-model': { type: 'string' },
  'sub-api-key-env': { type: 'string' },
  'sub-context-window': { type: 'string' },
  'stall-timeout': { type: 'string' },
  'max-response-mb': { type: 'string' },
  'response-timeout': { type: 'string' },
} as const;

type ModelValues = Partial<Record<keyof typeof MODEL_OPTIONS, string>>;
/** Each command declares the limit flags it offers; absent ones are simply not set. */
type LimitValues = Partial<Record<'max-iterations' | 'max-depth' | 'max-sub-calls' | 'max-tokens' | 'max-cost' | 'timeout' | 'cell-timeout', string>>;

export const DEFAULT_KEY_ENV: Record<HttpProvider, string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

/** node:util parseArgs throws TypeErrors with a code prefix; the user needs only the message. */
export function usageErrorFrom(error: unknown): UsageError {
  return new UsageError((error as Error).message.replace(/^TypeError \[[A-Z_]+\]: /, ''));
}

/** The root model from --provider/--model/…, and the sub model, which defaults to the root's settings. */
export function parseModelChoices(v: ModelValues, missingModel: string): { root: ModelChoice; sub: ModelChoice } {
  const provider = providerOf(v.provider ?? 'openai', '--provider');
  if (!v.model?.trim()) throw new UsageError(missingModel);
  const responseLimits = parseResponseLimits(v);
  const root: ModelChoice = {
    provider,
    ...(v['base-url'] ? { baseUrl: v['base-url'] } : {}),
    model: v.model.trim(),
    keyEnv: v['api-key-env'] ?? DEFAULT_KEY_ENV[provider],
    ...(v['context-window'] ? { contextWindowTokens: positiveInt(v['context-window'], '--context-window') } : {}),
    ...responseLimits,
  };
  const subProvider = v['sub-provider'] ? providerOf(v['sub-provider'], '--sub-provider') : provider;
  const same = subProvider === provider;
  if (!same && !v['sub-model']) throw new UsageError('--sub-provider differs from --provider, so --sub-model is needed too');
  const subBase = v['sub-base-url'] ?? (same ? root.baseUrl : undefined);
  const subWindow = v['sub-context-window'] ?? (v['sub-model'] ? undefined : v['context-window']);
  const sub: ModelChoice = {
    provider: subProvider,
    ...(subBase ? { baseUrl: subBase } : {}),
    model: v['sub-model']?.trim() || root.model,
    keyEnv: v['sub-api-key-env'] ?? (same ? root.keyEnv : DEFAULT_KEY_ENV[subProvider]),
    ...(subWindow ? { contextWindowTokens: positiveInt(subWindow, '--sub-context-window') } : {}),
    ...responseLimits,
  };
  return { root, sub };
}

/** How long a model server may stay silent and how much it may send (see core/models/responseGuard.ts). */
function parseResponseLimits(v: ModelValues): Pick<ModelChoice, 'stallTimeoutMs' | 'maxResponseBytes' | 'responseTimeoutMs'> {
  return {
    ...(v['stall-timeout'] !== undefined ? { stallTimeoutMs: Math.ceil(positiveNumber(v['stall-timeout'], '--stall-timeout') * 1000) } : {}),
    ...(v['max-response-mb'] !== undefined ? { maxResponseBytes: Math.ceil(positiveNumber(v['max-response-mb'], '--max-response-mb') * 1024 * 1024) } : {}),
    ...(v['response-timeout'] !== undefined ? { responseTimeoutMs: Math.ceil(positiveNumber(v['response-timeout'], '--response-timeout') * 1000) } : {}),
  };
}

export function parseLimits(v: LimitValues): Partial<RunLimits> {
  const limits: Partial<RunLimits> = {};
  if (v['max-iterations']) limits.maxIterations = positiveInt(v['max-iterations'], '--max-iterations');
  if (v['max-depth'] !== undefined) limits.maxDepth = nonNegativeInt(v['max-depth'], '--max-depth');
  if (v['max-sub-calls'] !== undefined) limits.maxSubCalls = nonNegativeInt(v['max-sub-calls'], '--max-sub-calls');
  if (v['max-tokens']) limits.maxTotalTokens = positiveInt(v['max-tokens'], '--max-tokens');
  if (v['max-cost']) limits.maxCostUsd = positiveNumber(v['max-cost'], '--max-cost');
  if (v.timeout) limits.maxWallTimeMs = Math.round(positiveNumber(v.timeout, '--timeout') * 1000);
  if (v['cell-timeout']) limits.cellTimeoutMs = Math.round(positiveNumber(v['cell-timeout'], '--cell-timeout') * 1000);
  return limits;
}

/** The client configuration for a choice, with its key read from the environment. */
export function modelConfig(choice: ModelChoice, env: Record<string, string | undefined>, flag: string): ModelConfig {
  const key = env[choice.keyEnv]?.trim();
  if (!key && !isLocalBaseUrl(choice.baseUrl)) {
    throw new UsageError(
      `no API key for ${choice.provider} model ${choice.model}: set the ${choice.keyEnv} environment variable ` +
        `(or name another with ${flag}), or use a local --base-url, which needs no key`,
    );
  }
  return {
    provider: choice.provider,
    ...(choice.baseUrl ? { baseUrl: choice.baseUrl } : {}),
    model: choice.model,
    ...(key ? { apiKey: key } : {}),
    ...(choice.contextWindowTokens ? { contextWindowTokens: choice.contextWindowTokens } : {}),
    ...(choice.stallTimeoutMs ? { stallTimeoutMs: choice.stallTimeoutMs } : {}),
    ...(choice.maxResponseBytes ? { maxResponseBytes: choice.maxResponseBytes } : {}),
    ...(choice.responseTimeoutMs ? { responseTimeoutMs: choice.responseTimeoutMs } : {}),
  };
}

/** The root and sub model configs of a choice pair, and the keys to keep out of recorded runs. */
export interface ModelConfigs {
  root: ModelConfig;
  /** The very same object as `root` when the sub choice is the root's: one client serves both. */
  sub: ModelConfig;
  secrets: string[];
}

/**
 * Builds both configs (keys from `env`; a missing key is a UsageError naming the flag), for every
 * command that takes the model flags (`rlm ask`, `rlm mcp`), so they agree on when the sub model is
 * the root's own: only when every field of the two choices is the same.
 */
export function modelConfigs(choices: { root: ModelChoice; sub: ModelChoice }, env: Record<string, string | undefined>): ModelConfigs {
  const root = modelConfig(choices.root, env, '--api-key-env');
  const sub = sameChoice(choices.root, choices.sub) ? root : modelConfig(choices.sub, env, '--sub-api-key-env');
  return { root, sub, secrets: [...new Set([root.apiKey, sub.apiKey].filter((k): k is string => !!k))] };
}

function sameChoice(a: ModelChoice, b: ModelChoice): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)] as Array<keyof ModelChoice>);
  return [...keys].every((key) => a[key] === b[key]);
}

/** The providers the CLI can reach: it runs outside VS Code, so never "vscode". */
type HttpProvider = Exclude<ProviderKind, 'vscode' | 'mcp'>;

function providerOf(value: string, flag: string): HttpProvider {
  if (value === 'openai' || value === 'anthropic') return value;
  if (value === 'vscode') throw new UsageError(`${flag} vscode cannot be used by the rlm command line: ${VSCODE_PROVIDER_OUTSIDE_EDITOR}`);
  throw new UsageError(`${flag} must be openai or anthropic (use openai for Ollama, LM Studio, vLLM, OpenRouter or any OpenAI-compatible server), got "${value}"`);
}

export function positiveNumber(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a positive number, got "${value}"`);
  return n;
}

export function positiveInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a whole number above 0, got "${value}"`);
  return n;
}

export function nonNegativeInt(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new UsageError(`${flag} must be a whole number, got "${value}"`);
  return n;
}
