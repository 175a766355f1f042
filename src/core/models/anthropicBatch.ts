// Anthropic's Message Batches through the official SDK: POST /v1/messages/batches with every request
// inline, GET /v1/messages/batches/{id} polled until processing_status is "ended", then the results
// JSONL (the batch's results_url) read and matched by custom_id; cancel through .../cancel.
import Anthropic from '@anthropic-ai/sdk';
import type { MessageBatch, MessageBatchIndividualResponse } from '@anthropic-ai/sdk/resources/messages/batches';
import { batchCall, batchEstimate, batchPriceFactor, batchUsage } from './batchCall';
import type { BatchApi, BatchOutcome, BatchRequest, BatchSnapshot } from './modelTypes';
import { normaliseFinishReason } from './clientSetup';
import type { ClientSetup } from './clientSetup';

export class AnthropicBatchApi implements BatchApi {
  readonly provider = 'anthropic' as const;
  readonly priceFactor: number;

  // True private fields: the setup holds the key, and must not show in logs or JSON of the client.
  readonly #setup: ClientSetup;
  readonly #sdk: Anthropic;

  constructor(setup: ClientSetup, sdk: Anthropic) {
    this.#setup = setup;
    this.#sdk = sdk;
    this.priceFactor = batchPriceFactor(setup);
  }

  estimateCostUsd(inputTokens: number, outputTokens: number): number | null {
    return batchEstimate(this.#setup, inputTokens, outputTokens);
  }

  async create(requests: readonly BatchRequest[], signal?: AbortSignal): Promise<BatchSnapshot> {
    const batch = await batchCall(this.#setup, Anthropic, signal, { unsupported: true }, (s) =>
      this.#sdk.messages.batches.create(
        {
          requests: requests.map((r) => {
            const system = r.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
            return {
              custom_id: r.customId,
              params: {
                model: this.#setup.config.model,
                max_tokens: r.maxTokens,
                messages: r.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content })),
                ...(system !== '' ? { system } : {}),
              },
            };
          }),
        },
        s ? { signal: s } : {},
      ),
    );
    return snapshotOf(batch);
  }

  async retrieve(id: string, signal?: AbortSignal): Promise<BatchSnapshot> {
    return snapshotOf(await batchCall(this.#setup, Anthropic, signal, { missing: id }, (s) => this.#sdk.messages.batches.retrieve(id, {}, s ? { signal: s } : {})));
  }

  async cancel(id: string): Promise<BatchSnapshot> {
    return snapshotOf(await batchCall(this.#setup, Anthropic, undefined, { missing: id }, () => this.#sdk.messages.batches.cancel(id)));
  }

  async results(snapshot: BatchSnapshot, signal?: AbortSignal): Promise<BatchOutcome[]> {
    return batchCall(this.#setup, Anthropic, signal, { missing: snapshot.id }, async (s) => {
      const outcomes: BatchOutcome[] = [];
      const stream = await this.#sdk.messages.batches.results(snapshot.id, {}, s ? { signal: s } : {});
      for await (const line of stream) outcomes.push(this.outcomeOf(line));
      return outcomes;
    });
  }

  private outcomeOf(line: MessageBatchIndividualResponse): BatchOutcome {
    const customId = typeof line.custom_id === 'string' ? line.custom_id : '';
    const result = line.result;
    switch (result?.type) {
      case 'succeeded': {
        const message = result.message;
        const usage = message.usage;
        const cacheRead = usage.cache_read_input_tokens ?? 0;
        const cacheWrite = usage.cache_creation_input_tokens ?? 0;
        return {
          customId,
          completion: {
            text: message.content.map((block) => (block.type === 'text' ? block.text : '')).join(''),
            // Anthropic's input_tokens excludes cached tokens; ours is the whole prompt.
            usage: batchUsage(
              { inputTokens: (usage.input_tokens ?? 0) + cacheRead + cacheWrite, outputTokens: usage.output_tokens ?? 0, ...(cacheRead ? { cacheReadTokens: cacheRead } : {}), ...(cacheWrite ? { cacheWriteTokens: cacheWrite } : {}) },
              this.#setup,
            ),
            finishReason: normaliseFinishReason(message.stop_reason),
            model: message.model || this.#setup.config.model,
          },
        };
      }
      case 'errored': {
        const inner = (result.error as { error?: { type?: unknown; message?: unknown } } | undefined)?.error;
        const message = typeof inner?.message === 'string' ? inner.message : 'the provider reported an error for this request';
        return { customId, error: { kind: 'batch_errored', message: typeof inner?.type === 'string' ? `${inner.type}: ${message}` : message } };
      }
      case 'canceled':
        return { customId, error: { kind: 'batch_canceled', message: 'the batch was cancelled before this request ran' } };
      case 'expired':
        return { customId, error: { kind: 'batch_expired', message: 'the batch ended (24 h) before this request ran' } };
      default:
        return { customId, error: { kind: 'batch_errored', message: `the provider gave an unknown result type ${JSON.stringify(String((result as { type?: unknown } | undefined)?.type))}` } };
    }
  }
}

function snapshotOf(batch: MessageBatch): BatchSnapshot {
  const rc = batch.request_counts;
  const counts = { succeeded: rc.succeeded, errored: rc.errored, expired: rc.expired, canceled: rc.canceled, processing: rc.processing };
  const total = counts.succeeded + counts.errored + counts.expired + counts.canceled + counts.processing;
  return { id: batch.id, status: batch.processing_status, ended: batch.processing_status === 'ended', counts: { total, ...counts } };
}
