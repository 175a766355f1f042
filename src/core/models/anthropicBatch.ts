// Anthropic's Message Batches through the official SDK: POST /v1/messages/batches with every request
// inline, GET /v1/messages/batches/{id} polled until processing_status is "ended", then the results
// JSONL read (batchDriver.ts matches it by custom_id); cancel through .../cancel.
import Anthropic from '@anthropic-ai/sdk';
import type { MessageBatch, MessageBatchIndividualResponse } from '@anthropic-ai/sdk/resources/messages/batches';
import { batchUsage } from './batchCall';
import { ProviderBatchApi } from './batchDriver';
import type { BatchWire } from './batchDriver';
import type { BatchOutcome, BatchSnapshot } from './modelTypes';
import { normaliseFinishReason } from './clientSetup';
import type { ClientSetup } from './clientSetup';

export function anthropicBatchApi(setup: ClientSetup, sdk: Anthropic): ProviderBatchApi<MessageBatch> {
  const signalOf = (s: AbortSignal | undefined): { signal?: AbortSignal } => (s ? { signal: s } : {});
  const wire: BatchWire<MessageBatch> = {
    provider: 'anthropic',
    sdkErrors: Anthropic,
    create: (requests, signal) =>
      sdk.messages.batches.create(
        {
          requests: requests.map((r) => {
            const system = r.messages.filter((m) => m.role === 'system').map((m) => m.content).join('\n\n');
            return {
              custom_id: r.customId,
              params: {
                model: setup.config.model,
                max_tokens: r.maxTokens,
                messages: r.messages.filter((m) => m.role !== 'system').map((m) => ({ role: m.role as 'user' | 'assistant', content: m.content })),
                ...(system !== '' ? { system } : {}),
              },
            };
          }),
        },
        signalOf(signal),
      ),
    retrieve: (id, signal) => sdk.messages.batches.retrieve(id, {}, signalOf(signal)),
    cancel: (id) => sdk.messages.batches.cancel(id),
    snapshot: snapshotOf,
    async resultTexts(id, signal) {
      // Always the results path on the configured endpoint. The SDK's own results() follows the
      // batch's `results_url` wherever it points, sending the API key with it: a hostile server
      // could send the key, or the request, to any host.
      const response = (await sdk.get<Response>(`/v1/messages/batches/${encodeURIComponent(id)}/results`, { ...signalOf(signal), headers: { Accept: 'application/binary' }, __binaryResponse: true })) as Response;
      return [await response.text()];
    },
    outcomeOf: (line) => outcomeOf(line as unknown as MessageBatchIndividualResponse, setup),
  };
  return new ProviderBatchApi(setup, wire);
}

function outcomeOf(line: MessageBatchIndividualResponse, setup: ClientSetup): BatchOutcome {
  const customId = typeof line.custom_id === 'string' ? line.custom_id : '';
  const result = line.result as MessageBatchIndividualResponse['result'] | undefined;
  switch (result?.type) {
    case 'succeeded': {
      const message = result.message;
      const usage = message?.usage;
      const tokens = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);
      const cacheRead = tokens(usage?.cache_read_input_tokens);
      const cacheWrite = tokens(usage?.cache_creation_input_tokens);
      const content = Array.isArray(message?.content) ? message.content : [];
      return {
        customId,
        completion: {
          text: content.map((block) => (block?.type === 'text' && typeof block.text === 'string' ? block.text : '')).join(''),
          // Anthropic's input_tokens excludes cached tokens; ours is the whole prompt.
          usage: batchUsage(
            { inputTokens: tokens(usage?.input_tokens) + cacheRead + cacheWrite, outputTokens: tokens(usage?.output_tokens), ...(cacheRead ? { cacheReadTokens: cacheRead } : {}), ...(cacheWrite ? { cacheWriteTokens: cacheWrite } : {}) },
            setup,
          ),
          finishReason: normaliseFinishReason(typeof message?.stop_reason === 'string' ? message.stop_reason : null),
          model: typeof message?.model === 'string' && message.model ? message.model : setup.config.model,
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
      return { customId, error: { kind: 'batch_errored', message: `the provider gave an unknown result type ${JSON.stringify(String((result as { type?: unknown } | undefined)?.type).slice(0, 40))}` } };
  }
}

function snapshotOf(batch: MessageBatch): BatchSnapshot {
  const rc = batch.request_counts;
  const counts = { succeeded: rc?.succeeded, errored: rc?.errored, expired: rc?.expired, canceled: rc?.canceled, processing: rc?.processing };
  const total = [counts.succeeded, counts.errored, counts.expired, counts.canceled, counts.processing].reduce<number>((n, c) => n + (typeof c === 'number' && Number.isFinite(c) && c > 0 ? c : 0), 0);
  // The driver clamps every count; here they are only read as the provider named them.
  return { id: batch.id, status: String(batch.processing_status), ended: batch.processing_status === 'ended', counts: { total, ...(counts as { succeeded: number; errored: number; expired: number; canceled: number; processing: number }) } };
}
