// API keys live only in SecretStorage, one per provider and endpoint. This module names them and
// keeps the index "Clear API keys" needs (SecretStorage cannot list its entries). No `vscode` import:
// the storage is passed in.
import type { ProviderKind } from '../../core/models/modelTypes';
import { normalizeBaseUrl } from './modelPresets';

interface SecretStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

interface KeyIndexStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

const INDEX_KEY = 'rlm.apiKeyIndex';

export function secretKeyName(provider: ProviderKind, baseUrl: string | undefined): string {
  return `rlm.apiKey/${provider}/${normalizeBaseUrl(baseUrl) || 'default'}`;
}

/** What the user sees for a key slot: "openai at api.openai.com" or "openai at http://localhost:1234/v1". */
export function describeKeySlot(provider: ProviderKind, baseUrl: string | undefined): string {
  const endpoint = normalizeBaseUrl(baseUrl) || (provider === 'anthropic' ? 'api.anthropic.com' : 'api.openai.com');
  return `${provider} at ${endpoint}`;
}

export class ApiKeyStore {
  constructor(
    private readonly secrets: SecretStore,
    private readonly index: KeyIndexStore,
  ) {}

  async get(provider: ProviderKind, baseUrl: string | undefined): Promise<string | undefined> {
    const value = await this.secrets.get(secretKeyName(provider, baseUrl));
    return value && value.length > 0 ? value : undefined;
  }

  async set(provider: ProviderKind, baseUrl: string | undefined, key: string): Promise<void> {
    const trimmed = key.trim();
    if (trimmed === '') throw new Error('An empty API key cannot be stored; use "RLM: Clear API keys" to remove keys.');
    const name = secretKeyName(provider, baseUrl);
    await this.secrets.store(name, trimmed);
    const names = new Set(this.index.get<string[]>(INDEX_KEY) ?? []);
    names.add(name);
    await this.index.update(INDEX_KEY, [...names].sort());
  }

  /** Deletes every key this extension stored; returns how many slots were cleared. */
  async clearAll(): Promise<number> {
    const names = this.index.get<string[]>(INDEX_KEY) ?? [];
    for (const name of names) await this.secrets.delete(name);
    await this.index.update(INDEX_KEY, []);
    return names.length;
  }

  storedSlots(): string[] {
    return [...(this.index.get<string[]>(INDEX_KEY) ?? [])];
  }
}
