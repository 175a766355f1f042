// The OpenAI-compatible client (OpenAI, Ollama, LM Studio, vLLM, OpenRouter …) on the official
// `openai` SDK, Chat Completions. Retries and Retry-After are the SDK's; failures become ModelErrors.
import OpenAI from 'openai';
import type { ChatCompletion, ChatCompletionCreateParamsBase, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { openAIBatchApi } from './openaiBatch';
import type { BatchApi } from './modelTypes';
import { DeltaCallbackFailure, DeltaSink, errorInfo, normaliseFinishReason, preflight } from './clientSetup';
import type { ClientSetup } from './clientSetup';
import { InvalidResponseError } from './modelErrors';
import type { ChatMessage, Completion, CompleteOptions, ModelClient } from './modelTypes';
import { computeCostUsd, makeUsage } from './pricing';
import type { TokenCounts } from './pricing';
import { abortedSignalError } from './sdkErrorMapping';
import { runSdkRequest, sdkClientOptions } from './sdkRequest';
import { estimateMessagesTokens, estimateTokens } from './tokenEstimate';

interface OpenAIUsage {
  prompt_tokens: number;
  completion_tokens: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}

export class OpenAIModelClient implements ModelClient {
  readonly provider = 'openai' as const;
  readonly model: string;
  readonly endpoint: string;
  readonly contextWindowTokens?: number;
  readonly batches: BatchApi;
  // True private fields: the setup holds the key, and must not show in logs or JSON of the client.
  readonly #setup: ClientSetup;
  readonly #sdk: OpenAI;
  readonly #streamingSdk: OpenAI;

  constructor(setup: ClientSetup) {
    this.#setup = setup;
    this.model = setup.config.model;
    this.endpoint = setup.endpoint.display;
    if (setup.config.contextWindowTokens !== undefined) this.contextWindowTokens = setup.config.contextWindowTokens;
    this.#sdk = new OpenAI(sdkClientOptions(setup, 'plain'));
    this.#streamingSdk = new OpenAI(sdkClientOptions(setup, 'streamed'));
    this.batches = openAIBatchApi(setup, this.#sdk);
  }

  estimateCostUsd(inputTokens: number, outputTokens: number): number | null {
    return computeCostUsd({ inputTokens, outputTokens }, this.#setup.pricing);
  }

  async complete(messages: ChatMessage[], options: CompleteOptions = {}): Promise<Completion> {
    preflight(this.#setup, messages, options);
    const started = this.#setup.now();
    const params: ChatCompletionCreateParamsBase = {
      model: this.model,
      messages: messages.map((m): ChatCompletionMessageParam => ({ role: m.role, content: m.content })),
      ...this.maxTokensParam(options.maxTokens),
      ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
      ...(options.stop && options.stop.length > 0 ? { stop: options.stop } : {}),
      // OpenAI caches long prefixes on its own; the key keeps one run's requests on the same cache.
      // Compatible servers may refuse an unknown field, so it goes to the official API only.
      ...(options.cache?.key && this.#setup.endpoint.isOfficial ? { prompt_cache_key: options.cache.key } : {}),
    };
    return runSdkRequest(this.#setup, OpenAI, options, started, (o) => (options.onDelta ? this.streamed(params, messages, o) : this.plain(params, messages, o)));
  }

  /** OpenAI's own API wants max_completion_tokens (reasoning models refuse max_tokens); compatible servers know max_tokens. */
  private maxTokensParam(maxTokens: number | undefined): { max_tokens?: number; max_completion_tokens?: number } {
    if (maxTokens === undefined) return {};
    return this.#setup.endpoint.isOfficial ? { max_completion_tokens: maxTokens } : { max_tokens: maxTokens };
  }

  private async plain(params: ChatCompletionCreateParamsBase, messages: ChatMessage[], options: CompleteOptions): Promise<Omit<Completion, 'latencyMs'>> {
    const response: ChatCompletion = await this.#sdk.chat.completions.create({ ...params, stream: false }, options.signal ? { signal: options.signal } : {});
    const choice = response.choices[0];
    if (!choice) throw new InvalidResponseError('the response has no choices', errorInfo(this.#setup));
    const text = choice.message.content ?? '';
    return {
      text,
      usage: this.usage(response.usage ?? undefined, messages, text),
      finishReason: normaliseFinishReason(choice.finish_reason),
      model: response.model || this.model,
    };
  }

  private async streamed(params: ChatCompletionCreateParamsBase, messages: ChatMessage[], options: CompleteOptions): Promise<Omit<Completion, 'latencyMs'>> {
    const stream = await this.#streamingSdk.chat.completions.create(
      { ...params, stream: true, stream_options: { include_usage: true } },
      options.signal ? { signal: options.signal } : {},
    );
    const sink = new DeltaSink(options.onDelta);
    let text = '';
    let finish: string | null = null;
    let usage: OpenAIUsage | undefined;
    let model = '';
    for await (const chunk of stream) {
      if (chunk.usage) usage = chunk.usage;
      if (chunk.model) model = chunk.model;
      const choice = chunk.choices[0];
      const delta = choice?.delta?.content ?? '';
      if (delta) {
        text += delta;
        if (!sink.push(delta)) break;
      }
      if (choice?.finish_reason) finish = choice.finish_reason;
    }
    if (sink.failed) throw new DeltaCallbackFailure(sink.error);
    // The SDK ends the iteration quietly when the signal fires; that is a cancellation, not an answer.
    if (options.signal?.aborted) throw abortedSignalError(options.signal, errorInfo(this.#setup), 'mid-stream');
    if (finish === null) throw new InvalidResponseError('the stream ended before the model finished (no finish_reason)', errorInfo(this.#setup));
    return { text, usage: this.usage(usage, messages, text), finishReason: normaliseFinishReason(finish), model: model || this.model };
  }

  private usage(reported: OpenAIUsage | undefined, messages: ChatMessage[], text: string): Completion['usage'] {
    if (!reported) {
      // Some compatible servers ignore include_usage: count roughly rather than report zero.
      return makeUsage({ inputTokens: estimateMessagesTokens(messages), outputTokens: estimateTokens(text) }, this.#setup.pricing, true);
    }
    const cached = reported.prompt_tokens_details?.cached_tokens ?? 0;
    const counts: TokenCounts = { inputTokens: reported.prompt_tokens, outputTokens: reported.completion_tokens, ...(cached ? { cacheReadTokens: cached } : {}) };
    return makeUsage(counts, this.#setup.pricing, false);
  }
}
