// The endpoints "Configure models..." offers. Local servers speak the OpenAI wire protocol and need
// no key; hosted ones do.
import type { ProviderKind } from '../../core/models/modelTypes';

interface ModelPreset {
  id: 'openai' | 'anthropic' | 'openrouter' | 'ollama' | 'lmstudio' | 'vllm' | 'custom';
  label: string;
  description: string;
  provider: ProviderKind;
  /** Empty: the provider's official endpoint. */
  baseUrl: string;
  /** A suggestion shown in the model input box; the user can type any model. */
  suggestedModel: string;
  needsKey: boolean;
}

export const MODEL_PRESETS: readonly ModelPreset[] = [
  { id: 'openai', label: 'OpenAI', description: 'api.openai.com', provider: 'openai', baseUrl: '', suggestedModel: 'gpt-4.1-mini', needsKey: true },
  { id: 'anthropic', label: 'Anthropic', description: 'api.anthropic.com', provider: 'anthropic', baseUrl: '', suggestedModel: 'claude-sonnet-4-5', needsKey: true },
  { id: 'openrouter', label: 'OpenRouter', description: 'openrouter.ai (OpenAI-compatible)', provider: 'openai', baseUrl: 'https://openrouter.ai/api/v1', suggestedModel: 'openai/gpt-4.1-mini', needsKey: true },
  { id: 'ollama', label: 'Ollama', description: 'local, http://localhost:11434/v1', provider: 'openai', baseUrl: 'http://localhost:11434/v1', suggestedModel: 'qwen2.5-coder:7b', needsKey: false },
  { id: 'lmstudio', label: 'LM Studio', description: 'local, http://localhost:1234/v1', provider: 'openai', baseUrl: 'http://localhost:1234/v1', suggestedModel: '', needsKey: false },
  { id: 'vllm', label: 'vLLM', description: 'local, http://localhost:8000/v1', provider: 'openai', baseUrl: 'http://localhost:8000/v1', suggestedModel: '', needsKey: false },
  { id: 'custom', label: 'Custom…', description: 'any OpenAI- or Anthropic-compatible server', provider: 'openai', baseUrl: '', suggestedModel: '', needsKey: false },
];

/** Problems with a base URL the user typed, as a sentence; undefined when it is fine (empty is fine). */
export function validateBaseUrl(value: string): string | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return 'Enter a full URL such as http://localhost:11434/v1';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'The URL must start with http:// or https://';
  if (url.username || url.password) return 'Do not put credentials in the URL; the key is asked for separately and kept in secret storage.';
  return undefined;
}

/** The preset a saved configuration corresponds to, for pre-selecting it in the quick pick. */
export function presetFor(provider: ProviderKind, baseUrl: string): ModelPreset | undefined {
  const normalized = normalizeBaseUrl(baseUrl);
  return MODEL_PRESETS.find((p) => p.id !== 'custom' && p.provider === provider && normalizeBaseUrl(p.baseUrl) === normalized);
}

/** Lower-cased scheme and host, no trailing slash: "HTTP://Host:1/v1/" and "http://host:1/v1" are one endpoint. */
export function normalizeBaseUrl(baseUrl: string | undefined): string {
  const text = (baseUrl ?? '').trim();
  if (text === '') return '';
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return text.replace(/\/+$/, '');
  }
}
