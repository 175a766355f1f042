// A ModelClient over VS Code's Language Model API: any model VS Code offers (Copilot's or another
// extension's), with no key. It streams, stops with the run's AbortSignal (through a cancellation
// token), counts tokens with the model's own tokenizer, waits its turn at a shared RequestGate, and
// reports its cost as included in the user's plan. No `vscode` import: the API comes in as LmSurface.
import { ContextTooLongError, ModelAbortedError, ModelConfigError } from '../../core/models/modelErrors';
import type { ChatMessage, Completion, CompleteOptions, ModelClient, TokenUsage } from '../../core/models/modelTypes';
import { estimateTokens } from '../../core/models/tokenEstimate';
import { mapLanguageModelError } from './lmErrors';
import type { LmCancellation, LmChatModel, LmMessage, LmSurface } from './lmSurface';
import type { RequestGate } from './requestGate';

/** Shown in VS Code's consent prompt. */
const LM_JUSTIFICATION = 'RLM answers your question by having the model write and run Python over your files, in several model calls.';

interface LanguageModelClientOptions {
  chat: LmChatModel;
  createCancellation: LmSurface['createCancellation'];
  gate: RequestGate;
  now?: () => number;
}

/**
 * The LM API has no system role: the system prompt becomes the first user message, and consecutive
 * messages of one role are joined, since some providers refuse two user turns in a row.
 */
export function toLmMessages(messages: readonly ChatMessage[]): LmMessage[] {
  const out: LmMessage[] = [];
  for (const message of messages) {
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const last = out[out.length - 1];
    if (last && last.role === role) last.content = `${last.content}\n\n${message.content}`;
    else out.push({ role, content: message.content });
  }
  return out;
}

export class LanguageModelClient implements ModelClient {
  readonly provider = 'vscode' as const;
  readonly model: string;
  readonly endpoint: string;
  readonly contextWindowTokens?: number;
  private readonly now: () => number;

  constructor(private readonly options: LanguageModelClientOptions) {
    const { chat } = options;
    this.model = chat.id;
    this.endpoint = `vscode.lm (${chat.vendor})`;
    if (Number.isInteger(chat.maxInputTokens) && chat.maxInputTokens > 0) this.contextWindowTokens = chat.maxInputTokens;
    this.now = options.now ?? Date.now;
  }

  /** A subscription model has no per-call price: zero, marked as included in the plan. */
  estimateCostUsd(): number {
    return 0;
  }

  async complete(messages: ChatMessage[], options: CompleteOptions = {}): Promise<Completion> {
    const { signal } = options;
    const info = { provider: this.provider, endpoint: this.endpoint, model: this.model };
    if (signal?.aborted) throw new ModelAbortedError('the request was cancelled before it was sent', info);
    const started = this.now();
    let release: (() => void) | undefined;
    let cancellation: LmCancellation | undefined;
    const onAbort = (): void => cancellation?.cancel();
    try {
      release = await this.options.gate.acquire(signal);
      cancellation = this.options.createCancellation();
      signal?.addEventListener('abort', onAbort, { once: true });
      const lmMessages = toLmMessages(messages);
      const input = await this.countInput(lmMessages, cancellation);
      if (this.contextWindowTokens !== undefined && input.tokens > this.contextWindowTokens) {
        throw new ContextTooLongError(`the prompt has ${input.tokens} tokens, more than the model's ${this.contextWindowTokens}`, {
          ...info,
          promptTokens: input.tokens,
          limitTokens: this.contextWindowTokens,
        });
      }
      const response = await this.options.chat.sendRequest(lmMessages, { justification: LM_JUSTIFICATION }, cancellation.token);
      const text = await this.read(response.text, options, signal);
      if (signal?.aborted) throw new ModelAbortedError('the request was cancelled', info);
      const output = await this.count(text, cancellation);
      const usage: TokenUsage = { inputTokens: input.tokens, outputTokens: output.tokens, costUsd: 0, includedInPlan: true };
      if (input.estimated || output.estimated) usage.estimated = true;
      return { text, usage, finishReason: 'stop', model: this.model, latencyMs: this.now() - started };
    } catch (error) {
      throw mapLanguageModelError(error, info, signal?.aborted === true);
    } finally {
      signal?.removeEventListener('abort', onAbort);
      cancellation?.dispose();
      release?.();
    }
  }

  /** Streams the fragments; a stop sequence ends the answer there (the LM API takes none itself). */
  private async read(stream: AsyncIterable<string>, options: CompleteOptions, signal: AbortSignal | undefined): Promise<string> {
    const stops = (options.stop ?? []).filter((s) => s !== '');
    let text = '';
    let shown = 0;
    for await (const fragment of stream) {
      if (signal?.aborted) break;
      text += fragment;
      const cut = firstStop(text, stops);
      if (cut !== undefined) {
        text = text.slice(0, cut);
        if (text.length > shown) options.onDelta?.(text.slice(shown));
        // Leaving the loop ends the stream, which cancels the request in VS Code.
        return text;
      }
      // Hold back a tail that could be the start of a stop sequence, so no stop text is ever shown.
      const safe = text.length - longestStopPrefix(text, stops);
      if (safe > shown) {
        options.onDelta?.(text.slice(shown, safe));
        shown = safe;
      }
    }
    if (text.length > shown && !signal?.aborted) options.onDelta?.(text.slice(shown));
    return text;
  }

  private async countInput(messages: LmMessage[], cancellation: LmCancellation): Promise<{ tokens: number; estimated: boolean }> {
    const counts = await Promise.all(messages.map((m) => this.count(m.content, cancellation)));
    return { tokens: counts.reduce((sum, c) => sum + c.tokens, 0), estimated: counts.some((c) => c.estimated) };
  }

  /** The model's own count; the ~4-characters estimate only when countTokens fails (never silently: `estimated`). */
  private async count(text: string, cancellation: LmCancellation): Promise<{ tokens: number; estimated: boolean }> {
    if (text === '') return { tokens: 0, estimated: false };
    try {
      const tokens = await this.options.chat.countTokens(text, cancellation.token);
      if (Number.isFinite(tokens) && tokens >= 0) return { tokens, estimated: false };
    } catch (error) {
      if (cancellation.token.isCancellationRequested) throw error;
    }
    return { tokens: estimateTokens(text), estimated: true };
  }
}

function firstStop(text: string, stops: readonly string[]): number | undefined {
  let best: number | undefined;
  for (const stop of stops) {
    const at = text.indexOf(stop);
    if (at >= 0 && (best === undefined || at < best)) best = at;
  }
  return best;
}

function longestStopPrefix(text: string, stops: readonly string[]): number {
  let longest = 0;
  for (const stop of stops) {
    for (let n = Math.min(stop.length - 1, text.length); n > longest; n--) {
      if (text.endsWith(stop.slice(0, n))) {
        longest = n;
        break;
      }
    }
  }
  return longest;
}

/** Lists what VS Code offers, for the "not found" message and the model picker. */
function describeLanguageModel(chat: Pick<LmChatModel, 'id' | 'name' | 'vendor' | 'family'>): string {
  return `${chat.id} (${chat.name}, ${chat.vendor}, family ${chat.family})`;
}

/**
 * The model a setting names: an id first, then a family, then an id, family or name in any case. A
 * "vendor/name" form narrows to that vendor. Fails with what VS Code does offer.
 */
export async function resolveLanguageModel(surface: LmSurface, wanted: string): Promise<LmChatModel> {
  const info = { provider: 'vscode' as const, endpoint: 'vscode.lm', model: wanted };
  const name = wanted.trim();
  if (name === '') throw new ModelConfigError('no model id or family is configured', info);
  const slash = name.indexOf('/');
  const vendor = slash > 0 ? name.slice(0, slash) : undefined;
  const rest = slash > 0 ? name.slice(slash + 1) : name;
  const byVendor = vendor ? { vendor } : {};
  const exact = (await surface.selectChatModels({ ...byVendor, id: rest }))[0] ?? (await surface.selectChatModels({ ...byVendor, family: rest }))[0];
  if (exact) return exact;
  const all = await surface.selectChatModels(vendor ? { vendor } : undefined);
  const lower = rest.toLowerCase();
  const loose = all.find((m) => [m.id, m.family, m.name].some((v) => v.toLowerCase() === lower));
  if (loose) return loose;
  const everything = vendor ? await surface.selectChatModels() : all;
  if (everything.length === 0) {
    throw new ModelConfigError(
      `VS Code offers no language model yet. Install and sign in to GitHub Copilot Chat (or another extension that provides models), then try again.`,
      info,
    );
  }
  const listed = everything.slice(0, 12).map(describeLanguageModel).join('; ');
  throw new ModelConfigError(`VS Code offers no model with id or family "${name}". Available: ${listed}${everything.length > 12 ? '; …' : ''}.`, info);
}
