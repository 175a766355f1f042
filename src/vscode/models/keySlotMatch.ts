// Which configured model a failure's "Set API key..." is about. A failure names the server as the
// client saw it ("https://api.openai.com/v1" for a model with no base URL set), the settings name it
// as the person typed it (""), so both are compared as the endpoint they resolve to. No `vscode` import.
import type { ProviderKind } from '../../core/models/modelTypes';
import type { KeySlot } from '../../shared/nextStep';
import { normalizeBaseUrl } from './modelPresets';

/** The official hosts a model with no base URL talks to. */
const OFFICIAL_HOSTS: Partial<Record<ProviderKind, string>> = { openai: 'api.openai.com', anthropic: 'api.anthropic.com' };

function hostOf(url: string): string | undefined {
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return undefined;
  }
}

function sameEndpoint(provider: ProviderKind, configured: string, named: string): boolean {
  const a = normalizeBaseUrl(configured);
  const b = normalizeBaseUrl(named);
  if (a === b) return true;
  const official = OFFICIAL_HOSTS[provider];
  // An unset base URL is the official endpoint, whatever path the client added to it.
  if (a === '') return b === '' || hostOf(b) === official;
  return false;
}

/**
 * The first of `settings` (root, then sub) that the slot names; undefined when none does (then the
 * person picks). Anything may call the command with any argument, so the slot is checked, not trusted.
 */
export function settingForSlot<T extends { provider: ProviderKind; baseUrl: string }>(slot: unknown, settings: ReadonlyArray<T | undefined>): T | undefined {
  if (typeof slot !== 'object' || slot === null) return undefined;
  const { provider, baseUrl } = slot as Partial<KeySlot>;
  if (typeof provider !== 'string' || typeof baseUrl !== 'string') return undefined;
  return settings.find((s): s is T => s !== undefined && s.provider !== 'vscode' && s.provider === provider && sameEndpoint(s.provider, s.baseUrl, baseUrl));
}
