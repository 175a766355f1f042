// The Anthropic client on the official `@anthropic-ai/sdk`, Messages API: the system prompt goes in
// its own field and max_tokens is always sent (default 4096). Retries are the SDK's.
import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsBase, MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { anthropicBatchApi } from './anthropicBatch';
import type { BatchApi } from './modelTypes';
import { DeltaCallbackFailure, DeltaSink, errorInfo, normaliseFinishReason, preflight } from './clientSetup';
import type { ClientSetup } from './clientSetup';
import { InvalidResponseError } from './modelErrors';
import type { ChatMessage, Completion, CompleteOptions, ModelClient, PromptCacheHints } from './modelTypes';
import { computeCostUsd, makeUsage } from './pricing';
import { abortedSignalError } from './sdkErrorMapping';
import { runSdkRequest, sdkClientOptions } from './sdkRequest';

export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
}

export class AnthropicModelClient implements ModelClient {
  readonly provider = 'anthropic' as const;
  readonly model: string;
  readonly endpoint: string;
  readonly contextWindowTokens?: number;
  readonly batches: BatchApi;
  // True private fields: the setup holds the key, and must not show in logs or JSON of the client.
  readonly #setup: ClientSetup;
  readonly #sdk: Anthropic;
  readonly #streamingSdk: Anthropic;

  constructor(setup: ClientSetup) {
    this.#setup = setup;
    this.model = setup.config.model;
    this.endpoint = setup.endpoint.display;
    if (setup.config.contextWindowTokens !== undefined) this.contextWindowTokens = setup.config.contextWindowTokens;
    this.#sdk = new Anthropic(sdkClientOptions(setup, 'plain'));
    this.#streamingSdk = new Anthropic(sdkClientOptions(setup, 'streamed'));
    this.batches = anthropicBatchApi(setup, this.#sdk);
  }

  estimateCostUsd(inputTokens: number, outputTokens: number): number | null {
    return computeCostUsd({ inputTokens, outputTokens }, this.#setup.pricing);
  }

  async complete(messages: ChatMessage[], options: CompleteOptions = {}): Promise<Completion> {
    preflight(this.#setup, messages, options);
    const started = this.#setup.now();
    const system = messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n\n');
    const params: MessageCreateParamsBase = {
      model: this.model,
      max_tokens: options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS,
      messages: cacheMarkedMessages(messages.filter((m) => m.role !== 'system'), options.cache),
      ...(system !== '' ? { system: options.cache?.conversation ? [{ type: 'text' as const, text: system, cache_control: EPHEMERAL }] : system } : {}),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.stop && options.stop.length > 0 ? { stop_sequences: options.stop } : {}),
    };
    return runSdkRequest(this.#setup, Anthropic, options, started, (o) => (options.onDelta ? this.streamed(params, o) : this.plain(params, o)));
  }

  private async plain(params: MessageCreateParamsBase, options: CompleteOptions): Promise<Omit<Completion, 'latencyMs'>> {
    const message = await this.#sdk.messages.create({ ...params, stream: false }, options.signal ? { signal: options.signal } : {});
    const text = message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    return { text, usage: this.usage(message.usage), finishReason: normaliseFinishReason(message.stop_reason), model: message.model || this.model };
  }

  private async streamed(params: MessageCreateParamsBase, options: CompleteOptions): Promise<Omit<Completion, 'latencyMs'>> {
    const stream = await this.#streamingSdk.messages.create({ ...params, stream: true }, options.signal ? { signal: options.signal } : {});
    const sink = new DeltaSink(options.onDelta);
    let text = '';
    let finish: string | null = null;
    let usage: AnthropicUsage = {};
    let model = '';
    let stopped = false;
    for await (const event of stream) {
      if (event.type === 'message_start') {
        usage = { ...event.message.usage };
        model = event.message.model;
      } else if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
        text += event.delta.text;
        if (!sink.push(event.delta.text)) break;
      } else if (event.type === 'message_delta') {
        finish = event.delta.stop_reason ?? finish;
        // message_delta carries cumulative counts; later fields replace the start's.
        usage = { ...usage, ...definedOnly(event.usage as AnthropicUsage) };
      } else if (event.type === 'message_stop') {
        stopped = true;
      }
    }
    if (sink.failed) throw new DeltaCallbackFailure(sink.error);
    if (options.signal?.aborted) throw abortedSignalError(options.signal, errorInfo(this.#setup), 'mid-stream');
    if (!stopped) throw new InvalidResponseError('the stream ended before message_stop', errorInfo(this.#setup));
    return { text, usage: this.usage(usage), finishReason: normaliseFinishReason(finish), model: model || this.model };
  }

  private usage(reported: AnthropicUsage): Completion['usage'] {
    const cacheRead = reported.cache_read_input_tokens ?? 0;
    const cacheWrite = reported.cache_creation_input_tokens ?? 0;
    // Anthropic's input_tokens excludes cached tokens; our inputTokens is the whole prompt.
    return makeUsage(
      {
        inputTokens: (reported.input_tokens ?? 0) + cacheRead + cacheWrite,
        outputTokens: reported.output_tokens ?? 0,
        ...(cacheRead ? { cacheReadTokens: cacheRead } : {}),
        ...(cacheWrite ? { cacheWriteTokens: cacheWrite } : {}),
      },
      this.#setup.pricing,
      false,
    );
  }
}

const EPHEMERAL = { type: 'ephemeral' as const };

/**
 * Messages with Anthropic's cache breakpoints where the hints ask for them: the newest message of a
 * conversation (each turn then reads the previous turn's prefix from the cache and writes its own), and
 * the shared head of a batch's prompt. Two breakpoints at most with the system prompt's, within the
 * API's four; a prefix under the model's minimum is simply not cached (and not charged extra).
 */
function cacheMarkedMessages(messages: ChatMessage[], hints: PromptCacheHints | undefined): MessageParam[] {
  return messages.map((m, i): MessageParam => {
    const role = m.role as 'user' | 'assistant';
    const shared = hints?.sharedPrefixChars;
    if (i === 0 && role === 'user' && shared !== undefined && shared > 0 && shared < m.content.length) {
      return { role, content: [{ type: 'text', text: m.content.slice(0, shared), cache_control: EPHEMERAL }, { type: 'text', text: m.content.slice(shared) }] };
    }
    if (hints?.conversation && i === messages.length - 1 && m.content !== '') return { role, content: [{ type: 'text', text: m.content, cache_control: EPHEMERAL }] };
    return { role, content: m.content };
  });
}

function definedOnly(usage: AnthropicUsage): AnthropicUsage {
  return Object.fromEntries(Object.entries(usage).filter(([, v]) => v !== null && v !== undefined));
}
