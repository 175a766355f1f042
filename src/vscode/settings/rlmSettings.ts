// The extension's settings as one plain, validated object. Reading goes through a getter so this
// module has no `vscode` import; the adapter passes workspace.getConfiguration('rlm').get.
import type { RunLimits } from '../../core/loop/loopTypes';
import type { ModelConfig, ModelPricing, ProviderKind } from '../../core/models/modelTypes';
import type { UserPriceTable } from '../../core/models/pricing';

export interface ModelSetting {
  provider: ProviderKind;
  baseUrl: string;
  model: string;
}

export interface RlmSettings {
  root: ModelSetting;
  /** Undefined when every rlm.sub.* field is empty: the sub model is the root model. */
  sub?: ModelSetting;
  limits: Partial<RunLimits>;
  /** rlm.modelStallTimeoutSeconds and rlm.maxResponseMb, for the root and the sub model alike. */
  responseLimits: Required<Pick<ModelConfig, 'stallTimeoutMs' | 'maxResponseBytes' | 'responseTimeoutMs'>>;
  contextLimitBytes: number;
  /** The REPL's memory cap in MB (a cell past it gets a MemoryError). */
  replMemoryMb: number;
  /** A folder or workspace over contextLimitBytes and up to this is bound lazily; past it, refused. */
  workspaceLimitBytes: number;
  maxFileBytes: number;
  include: string[];
  exclude: string[];
  trajectoryDirectory: string;
  trajectoriesInWorkspace: boolean;
  confirmBeforeSending: boolean;
  /** rlm.vscodeModelConcurrency: most requests at once to VS Code language models (they rate-limit). */
  vscodeModelConcurrency: number;
  /** rlm.prices: USD per million input and output tokens, by model id. */
  prices: UserPriceTable;
  /** rlm.subCallCache and rlm.subCallCacheMaxMb: identical sub-calls answered from this workspace's cache. */
  subCallCache: { enabled: boolean; maxBytes: number };
  /** rlm.subCallBatch and rlm.subCallBatchMin: llm_query_batched as provider batches (docs/batch.md). */
  subCallBatch: { mode: 'off' | 'auto' | 'always'; minPrompts: number };
}

/** Copilot's models rate-limit per user; a batch of 16 at once trips them. */
const DEFAULT_VSCODE_MODEL_CONCURRENCY = 4;

/** A setting holds a value that cannot work; carries which one and what was expected. */
export class SettingsError extends Error {
  constructor(
    readonly setting: string,
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`The setting rlm.${setting} is ${JSON.stringify(value)}, but it must be ${expected}.`);
    this.name = 'SettingsError';
  }
}

type SettingGetter = (key: string) => unknown;

function str(get: SettingGetter, key: string): string {
  const value = get(key);
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new SettingsError(key, value, 'a string');
  return value.trim();
}

function provider(get: SettingGetter, key: string, allowEmpty: boolean): ProviderKind | '' {
  const value = str(get, key);
  if (value === 'openai' || value === 'anthropic' || value === 'vscode') return value;
  if (value === '' && allowEmpty) return '';
  throw new SettingsError(key, value, allowEmpty ? '"openai", "anthropic", "vscode" or empty' : '"openai", "anthropic" or "vscode"');
}

function num(get: SettingGetter, key: string, min: number, integer: boolean): number | undefined {
  const value = get(key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || (integer && !Number.isInteger(value))) {
    throw new SettingsError(key, value, `${integer ? 'an integer' : 'a number'} ≥ ${min}`);
  }
  return value;
}

function globs(get: SettingGetter, key: string): string[] {
  const value = get(key);
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new SettingsError(key, value, 'a list of glob strings');
  return (value as string[]).map((v) => v.trim()).filter(Boolean);
}

/** The setting's own shape: { "model": { "input": 0.15, "output": 0.6 } }, in USD per million tokens. */
export interface PriceSettingEntry {
  input: number;
  output: number;
}

function prices(get: SettingGetter, key: string): UserPriceTable {
  const value = get(key);
  if (value === undefined || value === null) return {};
  const expected = 'an object of model ids to { "input": USD, "output": USD, "cacheRead"?: USD, "cacheWrite"?: USD } per million tokens';
  if (typeof value !== 'object' || Array.isArray(value)) throw new SettingsError(key, value, expected);
  const table: UserPriceTable = {};
  for (const [model, entry] of Object.entries(value as Record<string, unknown>)) {
    const { input, output, cacheRead, cacheWrite } = (entry ?? {}) as Partial<Record<'input' | 'output' | 'cacheRead' | 'cacheWrite', unknown>>;
    const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
    const okOrAbsent = (n: unknown): n is number | undefined => n === undefined || ok(n);
    if (!model.trim() || !ok(input) || !ok(output) || !okOrAbsent(cacheRead) || !okOrAbsent(cacheWrite)) {
      throw new SettingsError(`${key}["${model}"]`, entry, '{ "input": USD, "output": USD } per million tokens, both ≥ 0, with optional "cacheRead" and "cacheWrite" (≥ 0) for prompt-cache rates');
    }
    // Without cache rates, cached tokens are charged (and saved) as plain input.
    table[model.trim()] = {
      inputPerMTok: input,
      outputPerMTok: output,
      ...(cacheRead !== undefined ? { cacheReadPerMTok: cacheRead } : {}),
      ...(cacheWrite !== undefined ? { cacheWritePerMTok: cacheWrite } : {}),
    } satisfies ModelPricing;
  }
  return table;
}

export function readRlmSettings(get: SettingGetter): RlmSettings {
  const root: ModelSetting = {
    provider: provider(get, 'root.provider', true) || 'openai',
    baseUrl: str(get, 'root.baseUrl'),
    model: str(get, 'root.model'),
  };
  const subProvider = provider(get, 'sub.provider', true);
  const subBaseUrl = str(get, 'sub.baseUrl');
  const subModel = str(get, 'sub.model');
  // Empty sub fields mean "the same as root", field by field.
  const sub: ModelSetting | undefined =
    subProvider === '' && subBaseUrl === '' && subModel === ''
      ? undefined
      : { provider: subProvider || root.provider, baseUrl: subProvider && subProvider !== root.provider && !subBaseUrl ? '' : subBaseUrl || root.baseUrl, model: subModel || root.model };
  // A VS Code model has no URL: a base URL left over from another provider must not follow it.
  if (root.provider === 'vscode') root.baseUrl = '';
  if (sub?.provider === 'vscode') sub.baseUrl = '';
  const maxCost = num(get, 'maxCostUsd', 0, false);
  const cellTimeout = num(get, 'cellTimeoutSeconds', 1, false);
  const limits: Partial<RunLimits> = {};
  const iterations = num(get, 'maxIterations', 1, true);
  const depth = num(get, 'maxDepth', 0, true);
  const subCalls = num(get, 'maxSubCalls', 0, true);
  if (iterations !== undefined) limits.maxIterations = iterations;
  if (depth !== undefined) limits.maxDepth = depth;
  if (subCalls !== undefined) limits.maxSubCalls = subCalls;
  // 0 means "no cost limit".
  if (maxCost !== undefined && maxCost > 0) limits.maxCostUsd = maxCost;
  if (cellTimeout !== undefined) limits.cellTimeoutMs = Math.round(cellTimeout * 1000);
  const confirm = get('confirmBeforeSending');
  return {
    root,
    sub,
    limits,
    responseLimits: {
      stallTimeoutMs: Math.round((num(get, 'modelStallTimeoutSeconds', 1, false) ?? 60) * 1000),
      maxResponseBytes: Math.round((num(get, 'maxResponseMb', 1, false) ?? 64) * 1024 * 1024),
      responseTimeoutMs: Math.round((num(get, 'modelResponseTimeoutSeconds', 1, false) ?? 600) * 1000),
    },
    replMemoryMb: Math.round(Math.min(4096, num(get, 'replMemoryMb', 64, false) ?? 2048)),
    contextLimitBytes: Math.round((num(get, 'contextLimitMb', 0.001, false) ?? 64) * 1024 * 1024),
    workspaceLimitBytes: Math.round((num(get, 'workspaceLimitGb', 0, false) ?? 16) * 1024 * 1024 * 1024),
    maxFileBytes: Math.round((num(get, 'maxFileSizeKb', 1, false) ?? 1024) * 1024),
    include: globs(get, 'include'),
    exclude: globs(get, 'exclude'),
    trajectoryDirectory: str(get, 'trajectoryDirectory'),
    trajectoriesInWorkspace: get('trajectoriesInWorkspace') === true,
    confirmBeforeSending: confirm === undefined ? true : confirm === true,
    vscodeModelConcurrency: num(get, 'vscodeModelConcurrency', 1, true) ?? DEFAULT_VSCODE_MODEL_CONCURRENCY,
    prices: prices(get, 'prices'),
    subCallCache: { enabled: get('subCallCache') !== false, maxBytes: Math.round((num(get, 'subCallCacheMaxMb', 1, false) ?? 256) * 1024 * 1024) },
    subCallBatch: { mode: batchMode(get('subCallBatch')), minPrompts: num(get, 'subCallBatchMin', 1, true) ?? 20 },
  };
}

/** True when a root model is named: the minimum to run anything. */
export function isModelConfigured(settings: RlmSettings): boolean {
  return settings.root.model !== '';
}

export function modelLabel(setting: ModelSetting): string {
  return setting.provider === 'vscode' ? `VS Code · ${setting.model}` : `${setting.provider} · ${setting.model}`;
}

/** rlm.subCallBatch: an unknown value is "off" (never a surprise batch that takes hours). */
function batchMode(value: unknown): 'off' | 'auto' | 'always' {
  return value === 'auto' || value === 'always' ? value : 'off';
}
