// Where a model lives: the base URL each SDK should use, the form shown to users (no credentials,
// no query), and whether it is local (no key needed, $0 cost).
import { ModelConfigError } from './modelErrors';
import type { ModelConfig, ProviderKind } from './modelTypes';

export const OFFICIAL_BASE_URLS: Record<ProviderKind, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  // Not a URL: VS Code's Language Model API is reached in-process, never over HTTP from here.
  vscode: 'vscode.lm',
  // Not a URL either: the MCP client's own model, asked over the MCP session (sampling/createMessage).
  mcp: 'mcp.sampling',
};

export interface ResolvedEndpoint {
  /** What the SDK gets as baseURL. */
  sdkBaseUrl: string;
  /** For messages and logs: origin + path, never userinfo or query. */
  display: string;
  isLocal: boolean;
  isOfficial: boolean;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '0.0.0.0']);

export function isLocalHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return LOCAL_HOSTS.has(host) || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** True for http(s) URLs on this machine: localhost, 127.x.x.x, ::1. */
export function isLocalBaseUrl(baseUrl: string | undefined): boolean {
  if (!baseUrl || baseUrl.trim() === '') return false;
  try {
    return isLocalHost(new URL(baseUrl.trim()).hostname);
  } catch {
    return false;
  }
}

export function resolveEndpoint(config: Pick<ModelConfig, 'provider' | 'baseUrl' | 'model'>): ResolvedEndpoint {
  const raw = config.baseUrl?.trim() ?? '';
  const official = OFFICIAL_BASE_URLS[config.provider];
  if (raw === '') return { sdkBaseUrl: official, display: official, isLocal: false, isOfficial: true };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ModelConfigError(`the base URL "${stripSecrets(raw)}" is not a valid URL; expected e.g. http://localhost:11434/v1`, {
      provider: config.provider,
      endpoint: '(invalid base URL)',
      model: config.model,
    });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ModelConfigError(`the base URL must start with http:// or https://, got ${url.protocol}`, {
      provider: config.provider,
      endpoint: `${url.protocol}//${url.host}`,
      model: config.model,
    });
  }
  let path = url.pathname.replace(/\/+$/, '');
  // The Anthropic SDK appends /v1/messages itself; a pasted ".../v1" would double it.
  if (config.provider === 'anthropic') path = path.replace(/\/v1$/, '');
  // OpenAI-compatible servers (Ollama, LM Studio, vLLM) serve under /v1; a bare host means that.
  if (config.provider === 'openai' && path === '') path = '/v1';
  url.pathname = path;
  const sdkBaseUrl = url.toString().replace(/\/+$/, '');
  const display = `${url.origin}${path}`;
  return { sdkBaseUrl, display, isLocal: isLocalHost(url.hostname), isOfficial: display === official };
}

function stripSecrets(raw: string): string {
  return raw.replace(/\/\/[^/@]*@/, '//').replace(/\?.*$/, '');
}
