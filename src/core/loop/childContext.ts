// Turns the value Python passed as rlm_query's `context` into something a child REPL can bind.
import type { ContextSource } from '../context/contextTypes';

/** str -> text; dict of str -> files; anything else -> its JSON text; missing -> the prompt itself. */
export function childContextSource(value: unknown, prompt: string): ContextSource {
  if (value === null || value === undefined) return { kind: 'text', text: prompt, label: 'rlm_query prompt' };
  if (typeof value === 'string') return { kind: 'text', text: value, label: 'rlm_query context' };
  if (value instanceof Map) return childContextSource(Object.fromEntries(value), prompt);
  if (isStringRecord(value)) {
    return { kind: 'files', files: Object.entries(value).map(([path, content]) => ({ path, content })) };
  }
  let text: string;
  try {
    text = JSON.stringify(value, (_k, v: unknown) => (v instanceof Map ? Object.fromEntries(v) : v), 1) ?? String(value);
  } catch {
    text = String(value);
  }
  return { kind: 'text', text, label: 'rlm_query context (JSON)' };
}

function isStringRecord(value: unknown): value is Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entries = Object.entries(value);
  return entries.length > 0 && entries.every(([, v]) => typeof v === 'string');
}
