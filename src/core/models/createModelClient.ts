// The one way to get a ModelClient from configuration. Checks what can be checked before any
// request (provider, base URL, key, pricing) and fails with a typed, actionable error.
import { AnthropicModelClient } from './anthropicClient';
import type { ClientSetup } from './clientSetup';
import { OFFICIAL_BASE_URLS, resolveEndpoint } from './endpoint';
import { ModelConfigError, VSCODE_PROVIDER_OUTSIDE_EDITOR } from './modelErrors';
import type { ModelClient, ModelConfig } from './modelTypes';
import { OpenAIModelClient } from './openaiClient';
import { resolvePricing } from './pricing';
import { DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_RESPONSE_TIMEOUT_MS, DEFAULT_STALL_TIMEOUT_MS } from './responseGuard';

export interface ModelClientDeps {
  /** Clock for latency; default Date.now. */
  now?: () => number;
  /** Passed to the SDK (e.g. a proxy-aware fetch); default nodeHttpFetch, Node's http client behind fetch's signature. */
  fetch?: typeof fetch;
}

/** The SDKs' own default (10 minutes). */
export const DEFAULT_MODEL_TIMEOUT_MS = 600_000;
export const DEFAULT_MAX_RETRIES = 2;
/** Local servers ignore the key, but both SDKs insist on one. */
const LOCAL_PLACEHOLDER_KEY = 'local-no-key';

const KEY_HINTS: Record<'openai' | 'anthropic', string> = { openai: 'OPENAI_API_KEY', anthropic: 'ANTHROPIC_API_KEY' };

export function createModelClient(config: ModelConfig, deps: ModelClientDeps = {}): ModelClient {
  if (!config || typeof config !== 'object') throw new TypeError('createModelClient needs a ModelConfig object');
  const provider = config.provider;
  if (provider === 'vscode') {
    throw new ModelConfigError(VSCODE_PROVIDER_OUTSIDE_EDITOR, { provider, endpoint: OFFICIAL_BASE_URLS.vscode, model: String(config.model) });
  }
  if (provider === 'mcp') {
    throw new ModelConfigError('the "mcp" provider is the model of the MCP client that started rlm mcp, reached through MCP sampling; it exists only inside rlm mcp.', { provider, endpoint: OFFICIAL_BASE_URLS.mcp, model: String(config.model) });
  }
  if (provider !== 'openai' && provider !== 'anthropic') {
    throw new ModelConfigError(`unknown provider "${String(provider)}"; use "openai" (also for OpenAI-compatible servers) or "anthropic"`, {
      provider: 'openai',
      endpoint: config.baseUrl ?? '(default)',
      model: String(config.model),
    });
  }
  const model = typeof config.model === 'string' ? config.model.trim() : '';
  const endpoint = resolveEndpoint({ ...config, model });
  const info = { provider, endpoint: endpoint.display, model };
  if (model === '') throw new ModelConfigError('no model name is configured', info);
  const apiKey = config.apiKey?.trim() ?? '';
  if (apiKey === '' && !endpoint.isLocal) {
    throw new ModelConfigError(
      `no API key is configured for this endpoint. Provide one (for example in the ${KEY_HINTS[provider]} environment variable), or point the base URL at a local server, which needs none.`,
      info,
    );
  }
  const timeoutMs = config.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS;
  const maxRetries = config.maxRetries ?? DEFAULT_MAX_RETRIES;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new ModelConfigError(`timeoutMs must be a positive number, got ${timeoutMs}`, info);
  if (!Number.isInteger(maxRetries) || maxRetries < 0) throw new ModelConfigError(`maxRetries must be a non-negative integer, got ${maxRetries}`, info);
  const stallTimeoutMs = config.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS;
  const maxResponseBytes = config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const responseTimeoutMs = config.responseTimeoutMs ?? DEFAULT_RESPONSE_TIMEOUT_MS;
  if (!Number.isFinite(stallTimeoutMs) || stallTimeoutMs <= 0) throw new ModelConfigError(`stallTimeoutMs must be a positive number, got ${stallTimeoutMs}`, info);
  if (!Number.isFinite(maxResponseBytes) || maxResponseBytes <= 0) throw new ModelConfigError(`maxResponseBytes must be a positive number, got ${maxResponseBytes}`, info);
  if (!Number.isFinite(responseTimeoutMs) || responseTimeoutMs <= 0) throw new ModelConfigError(`responseTimeoutMs must be a positive number, got ${responseTimeoutMs}`, info);
  if (config.contextWindowTokens !== undefined && !(Number.isInteger(config.contextWindowTokens) && config.contextWindowTokens > 0)) {
    throw new ModelConfigError(`contextWindowTokens must be a positive integer, got ${config.contextWindowTokens}`, info);
  }
  let pricing;
  try {
    pricing = resolvePricing({ model, ...(config.pricing ? { pricing: config.pricing } : {}) }, endpoint.isLocal);
  } catch (error) {
    throw new ModelConfigError((error as Error).message, info);
  }
  const setup: ClientSetup = {
    config: { ...config, model, ...(apiKey ? { apiKey } : {}) },
    endpoint,
    sdkApiKey: apiKey || LOCAL_PLACEHOLDER_KEY,
    pricing,
    timeoutMs,
    maxRetries,
    stallTimeoutMs,
    maxResponseBytes,
    responseTimeoutMs,
    now: deps.now ?? Date.now,
    ...(deps.fetch ? { fetch: deps.fetch } : {}),
  };
  return provider === 'openai' ? new OpenAIModelClient(setup) : new AnthropicModelClient(setup);
}
