// Reading single values out of the Python reference's log entries. Fields come and go between its
// versions and any of them can hold anything, so every reader here checks the type it gets.
import type { ContextMetadata } from '../context/contextTypes';
import type { TokenUsage } from '../models/modelTypes';
import type { RecordedRunError } from './events';
import { isPlainObject } from './trajectoryFormat';

export type Obj = Record<string, unknown>;

/** A failed call: newer reference logs add `error`, `error_type` and `status_code` to the call. */
export function callError(call: Obj): RecordedRunError | undefined {
  const message = str(call.error);
  if (message === undefined) return undefined;
  const status = num(call.status_code);
  return { kind: str(call.error_type) ?? 'error', message: status !== undefined ? `${message} (HTTP ${status})` : message };
}

/**
 * The iterations of a call that ran as its own RLM. The reference puts a child's trajectory on the
 * call as `metadata: {run_metadata, iterations}` (its depth metadata); older shapes used `trajectory`
 * or put `iterations` on the call itself.
 */
export function nestedIterations(call: Obj): Obj[] | undefined {
  const holders = [call.metadata, call.trajectory, call];
  for (const holder of holders) {
    if (isPlainObject(holder) && Array.isArray(holder.iterations)) {
      const its = holder.iterations.filter(isPlainObject);
      if (its.length) return its;
    }
  }
  return undefined;
}

/** The model a call (or its child run's run_metadata) names. */
export function callModel(call: Obj): string | undefined {
  const runMetadata = isPlainObject(call.metadata) && isPlainObject(call.metadata.run_metadata) ? call.metadata.run_metadata : {};
  return str(call.root_model) ?? str(call.model) ?? str(runMetadata.root_model);
}

/** The reference's usage_summary: {model_usage_summaries: {model: {total_input_tokens, ...}}}, or older flat fields. */
export function usageOf(summary: unknown, flat?: Obj): TokenUsage {
  let inputTokens = 0;
  let outputTokens = 0;
  let cost: number | null = null;
  let sawCost = true;
  const perModel = isPlainObject(summary) && isPlainObject(summary.model_usage_summaries) ? Object.values(summary.model_usage_summaries) : [];
  for (const m of perModel.filter(isPlainObject)) {
    inputTokens += num(m.total_input_tokens) ?? num(m.input_tokens) ?? 0;
    outputTokens += num(m.total_output_tokens) ?? num(m.output_tokens) ?? 0;
    const c = num(m.total_cost) ?? num(m.cost);
    if (c === undefined) sawCost = false;
    else cost = (cost ?? 0) + c;
  }
  if (perModel.length === 0) {
    const source = isPlainObject(summary) ? summary : flat ?? {};
    inputTokens = num(source.prompt_tokens) ?? num(source.input_tokens) ?? num(flat?.prompt_tokens) ?? 0;
    outputTokens = num(source.completion_tokens) ?? num(source.output_tokens) ?? num(flat?.completion_tokens) ?? 0;
    cost = num(source.cost) ?? num(source.total_cost) ?? null;
  }
  return { inputTokens, outputTokens, costUsd: sawCost ? cost : null };
}

export function promptText(prompt: unknown): string {
  if (typeof prompt === 'string') return prompt;
  if (Array.isArray(prompt)) {
    return prompt.map((m) => (isPlainObject(m) && typeof m.content === 'string' ? `${str(m.role) ?? 'user'}: ${m.content}` : JSON.stringify(m))).join('\n\n');
  }
  return prompt === undefined || prompt === null ? '' : JSON.stringify(prompt);
}

/**
 * What a run_context's `prompt` (the payload the reference binds in the REPL) looked like, as our
 * context metadata: its kind, size and first characters. It was never a file, so no files are listed.
 */
export function payloadMetadata(payload: unknown): ContextMetadata | undefined {
  if (payload === undefined || payload === null) return undefined;
  const text = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return {
    type: typeof payload === 'string' ? 'str' : 'dict',
    totalChars: text.length,
    totalBytes: Buffer.byteLength(text),
    fileCount: 0,
    prefix: text.slice(0, 200),
    files: [],
    filesOmitted: 0,
    invalidUtf8Replacements: 0,
  };
}

/** The messages of an iteration's prompt, when it is the usual list of {role, content}. */
export function promptMessages(prompt: unknown): Obj[] | undefined {
  return Array.isArray(prompt) ? prompt.filter(isPlainObject) : undefined;
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}
export function seconds(value: unknown): number | undefined {
  const s = num(value);
  return s === undefined ? undefined : Math.round(s * 1000);
}
export function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
