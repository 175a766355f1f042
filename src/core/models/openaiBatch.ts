// OpenAI's Batch API through the official SDK: the requests go up as a JSONL file (files API, purpose
// "batch"), POST /v1/batches runs them on /v1/chat/completions within 24 h, GET /v1/batches/{id} is
// polled, and the output and error files are read back and matched by custom_id.
import OpenAI, { toFile } from 'openai';
import type { Batch } from 'openai/resources/batches';
import { batchCall, batchEstimate, batchPriceFactor, batchUsage } from './batchCall';
import { emptyCounts } from './batchTypes';
import type { BatchApi, BatchCounts, BatchOutcome, BatchRequest, BatchSnapshot } from './modelTypes';
import { normaliseFinishReason } from './clientSetup';
import type { ClientSetup } from './clientSetup';
import { InvalidResponseError } from './modelErrors';
import { errorInfo } from './clientSetup';

const ENDED = new Set(['completed', 'failed', 'expired', 'cancelled']);

interface OutputLine {
  custom_id?: unknown;
  response?: { status_code?: unknown; body?: unknown } | null;
  error?: { code?: unknown; message?: unknown } | null;
}

export class OpenAIBatchApi implements BatchApi {
  readonly provider = 'openai' as const;
  readonly priceFactor: number;

  // True private fields: the setup holds the key, and must not show in logs or JSON of the client.
  readonly #setup: ClientSetup;
  readonly #sdk: OpenAI;

  constructor(setup: ClientSetup, sdk: OpenAI) {
    this.#setup = setup;
    this.#sdk = sdk;
    this.priceFactor = batchPriceFactor(setup);
  }

  estimateCostUsd(inputTokens: number, outputTokens: number): number | null {
    return batchEstimate(this.#setup, inputTokens, outputTokens);
  }

  async create(requests: readonly BatchRequest[], signal?: AbortSignal): Promise<BatchSnapshot> {
    const lines = requests.map((r) =>
      JSON.stringify({
        custom_id: r.customId,
        method: 'POST',
        url: '/v1/chat/completions',
        body: {
          model: this.#setup.config.model,
          messages: r.messages.map((m) => ({ role: m.role, content: m.content })),
          // As for a single call: OpenAI's own API wants max_completion_tokens, compatible servers max_tokens.
          ...(this.#setup.endpoint.isOfficial ? { max_completion_tokens: r.maxTokens } : { max_tokens: r.maxTokens }),
        },
      }),
    );
    const file = await batchCall(this.#setup, OpenAI, signal, { unsupported: true }, (s) =>
      toFile(Buffer.from(`${lines.join('\n')}\n`, 'utf8'), 'rlm-batch.jsonl', { type: 'application/jsonl' }).then((upload) =>
        this.#sdk.files.create({ file: upload, purpose: 'batch' }, s ? { signal: s } : {}),
      ),
    );
    const batch = await batchCall(this.#setup, OpenAI, signal, { unsupported: true }, (s) =>
      this.#sdk.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { created_by: 'rlm' } }, s ? { signal: s } : {}),
    );
    return snapshotOf(batch, requests.length);
  }

  async retrieve(id: string, signal?: AbortSignal): Promise<BatchSnapshot> {
    const batch = await batchCall(this.#setup, OpenAI, signal, { missing: id }, (s) => this.#sdk.batches.retrieve(id, s ? { signal: s } : {}));
    return snapshotOf(batch);
  }

  async cancel(id: string): Promise<BatchSnapshot> {
    const batch = await batchCall(this.#setup, OpenAI, undefined, { missing: id }, () => this.#sdk.batches.cancel(id));
    return snapshotOf(batch);
  }

  async results(snapshot: BatchSnapshot, signal?: AbortSignal): Promise<BatchOutcome[]> {
    const batch = await batchCall(this.#setup, OpenAI, signal, { missing: snapshot.id }, (s) => this.#sdk.batches.retrieve(snapshot.id, s ? { signal: s } : {}));
    const outcomes: BatchOutcome[] = [];
    for (const fileId of [batch.output_file_id, batch.error_file_id]) {
      if (!fileId) continue;
      const text = await batchCall(this.#setup, OpenAI, signal, { missing: fileId }, async (s) => (await this.#sdk.files.content(fileId, s ? { signal: s } : {})).text());
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        outcomes.push(this.outcomeOf(parseLine(line, this.#setup), batch.status));
      }
    }
    return outcomes;
  }

  private outcomeOf(line: OutputLine, batchStatus: string): BatchOutcome {
    const customId = typeof line.custom_id === 'string' ? line.custom_id : '';
    const code = typeof line.error?.code === 'string' ? line.error.code : undefined;
    const message = typeof line.error?.message === 'string' ? line.error.message : undefined;
    if (code === 'batch_expired') return { customId, error: { kind: 'batch_expired', message: message ?? 'the batch ended (24 h) before this request ran' } };
    if (code === 'batch_cancelled') return { customId, error: { kind: 'batch_canceled', message: message ?? 'the batch was cancelled before this request ran' } };
    const status = line.response?.status_code;
    const body = line.response?.body as { choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }>; model?: unknown; usage?: OpenAIUsage; error?: { message?: unknown } } | undefined;
    if (status !== 200 || !body?.choices) {
      const why = typeof body?.error?.message === 'string' ? body.error.message : message ?? `HTTP ${String(status)}`;
      return { customId, error: { kind: batchStatus === 'expired' ? 'batch_expired' : 'batch_errored', message: why } };
    }
    const choice = body.choices[0];
    const text = typeof choice?.message?.content === 'string' ? choice.message.content : '';
    const usage = body.usage;
    const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
    return {
      customId,
      completion: {
        text,
        usage: batchUsage({ inputTokens: usage?.prompt_tokens ?? 0, outputTokens: usage?.completion_tokens ?? 0, ...(cached ? { cacheReadTokens: cached } : {}) }, this.#setup),
        finishReason: normaliseFinishReason(typeof choice?.finish_reason === 'string' ? choice.finish_reason : null),
        model: typeof body.model === 'string' && body.model ? body.model : this.#setup.config.model,
      },
    };
  }
}

interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}

function parseLine(line: string, setup: ClientSetup): OutputLine {
  try {
    const parsed: unknown = JSON.parse(line);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as OutputLine;
  } catch {
    // reported below
  }
  throw new InvalidResponseError(`a line of the batch's output file is not a JSON object: ${JSON.stringify(line.slice(0, 80))}`, errorInfo(setup));
}

/** OpenAI counts completed and failed requests; what has not ended is still processing, or expired/cancelled once the batch has. */
function snapshotOf(batch: Batch, requested?: number): BatchSnapshot {
  const rc = batch.request_counts;
  const total = rc?.total || requested || 0;
  const succeeded = rc?.completed ?? 0;
  const errored = rc?.failed ?? 0;
  const ended = ENDED.has(batch.status);
  const rest = Math.max(0, total - succeeded - errored);
  const counts: BatchCounts = { ...emptyCounts(total), succeeded, errored, processing: ended ? 0 : rest };
  if (ended && batch.status === 'expired') counts.expired = rest;
  else if (ended && batch.status === 'cancelled') counts.canceled = rest;
  else if (ended && batch.status === 'failed') counts.errored = total - succeeded;
  return { id: batch.id, status: batch.status, ended, counts };
}
