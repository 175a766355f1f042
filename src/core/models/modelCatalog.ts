// The models a server offers, for the model setup's pickers: GET /v1/models on OpenAI-compatible
// servers (OpenAI, OpenRouter, Ollama, LM Studio, vLLM...) and on Anthropic's API, each id with its
// price where the price table knows it (a local server costs nothing). A server that does not answer
// is not an error for the caller: the setup still lets the user type a name.
import { resolveEndpoint } from './endpoint';
import { lookupPricing } from './pricing';
import { guardFetch, ResponseGuardTrip } from './responseGuard';
import type { ModelPricing, ProviderKind } from './modelTypes';

interface CatalogModel {
  id: string;
  /** Anthropic's display name, when it differs from the id. */
  displayName?: string;
  /** null: price unknown. */
  pricing: ModelPricing | null;
}

type CatalogResult =
  | { ok: true; models: CatalogModel[]; isLocal: boolean }
  | { ok: false; reason: string };

interface CatalogRequest {
  provider: ProviderKind;
  baseUrl: string;
  apiKey?: string;
  signal?: AbortSignal;
  fetch?: typeof fetch;
}

const ANTHROPIC_VERSION = '2023-06-01';
const MAX_MODELS = 1000;
/**
 * The server is as untrusted here as when it answers a prompt: the list is read through the same
 * guard, with limits of its own. A thousand models' entries are well under 1 MB.
 */
const LIST_LIMITS = { stallTimeoutMs: 10_000, responseTimeoutMs: 10_000, maxResponseBytes: 4 * 1024 * 1024, guardHeaderWait: true, eventStream: false };

function modelsUrl(provider: ProviderKind, sdkBaseUrl: string): string {
  const base = sdkBaseUrl.replace(/\/+$/, '');
  // The OpenAI SDK's base URL already ends in /v1; Anthropic's is the bare host.
  return provider === 'anthropic' ? `${base}/v1/models?limit=${MAX_MODELS}` : `${base}/models`;
}

function idsOf(body: unknown): Array<{ id: string; displayName?: string }> {
  const data = typeof body === 'object' && body !== null ? (body as { data?: unknown; models?: unknown }).data ?? (body as { models?: unknown }).models : undefined;
  if (!Array.isArray(data)) return [];
  const out: Array<{ id: string; displayName?: string }> = [];
  for (const item of data.slice(0, MAX_MODELS)) {
    if (typeof item !== 'object' || item === null) continue;
    const id = (item as { id?: unknown }).id;
    const name = (item as { display_name?: unknown }).display_name;
    if (typeof id !== 'string' || id.trim() === '') continue;
    out.push(typeof name === 'string' && name && name !== id ? { id, displayName: name } : { id });
  }
  return out;
}

export async function listModels(request: CatalogRequest): Promise<CatalogResult> {
  let endpoint;
  try {
    endpoint = resolveEndpoint({ provider: request.provider, baseUrl: request.baseUrl, model: '' });
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (request.provider === 'anthropic') {
    headers['anthropic-version'] = ANTHROPIC_VERSION;
    if (request.apiKey) headers['x-api-key'] = request.apiKey;
  } else if (request.apiKey) {
    headers.authorization = `Bearer ${request.apiKey}`;
  }
  const doFetch = guardFetch(request.fetch ?? ((input, init) => fetch(input, init)), LIST_LIMITS);
  let response: Response;
  try {
    response = await doFetch(modelsUrl(request.provider, endpoint.sdkBaseUrl), { headers, ...(request.signal ? { signal: request.signal } : {}) });
  } catch (error) {
    const cause = error instanceof ResponseGuardTrip ? 'did not answer within 10 s' : 'could not be reached';
    return { ok: false, reason: `${endpoint.display} ${cause}.` };
  }
  if (response.status === 401 || response.status === 403) return { ok: false, reason: `${endpoint.display} refused the key (HTTP ${response.status}) when asked for its models.` };
  if (!response.ok) return { ok: false, reason: `${endpoint.display} does not list its models (HTTP ${response.status}).` };
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if (error instanceof ResponseGuardTrip) {
      const what = error.reason === 'too_large' ? `a models list over ${LIST_LIMITS.maxResponseBytes / (1024 * 1024)} MB` : 'a models list that did not arrive within 10 s';
      return { ok: false, reason: `${endpoint.display} sent ${what}; it was cut off.` };
    }
    return { ok: false, reason: `${endpoint.display} answered the models list with something other than JSON.` };
  }
  const models = idsOf(body)
    .map((m) => ({ ...m, pricing: endpoint.isLocal ? { inputPerMTok: 0, outputPerMTok: 0 } : lookupPricing(m.id) ?? null }))
    .sort((a, b) => a.id.localeCompare(b.id));
  return { ok: true, models, isLocal: endpoint.isLocal };
}
