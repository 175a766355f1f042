// OpenAI's Batch API through the official SDK: the requests go up as a JSONL file (files API, purpose
// "batch"), POST /v1/batches runs them on /v1/chat/completions within 24 h, GET /v1/batches/{id} is
// polled, and the output and error files are read back (batchDriver.ts matches them by custom_id).
import OpenAI, { toFile } from 'openai';
import type { Batch } from 'openai/resources/batches';
import { batchUsage } from './batchCall';
import { ProviderBatchApi } from './batchDriver';
import type { BatchWire } from './batchDriver';
import { emptyCounts } from './batchTypes';
import type { BatchCounts, BatchOutcome, BatchRequest, BatchSnapshot } from './modelTypes';
import { normaliseFinishReason } from './clientSetup';
import type { ClientSetup } from './clientSetup';

const ENDED = new Set(['completed', 'failed', 'expired', 'cancelled']);
/** A failed batch's own messages, as many as fit one readable line each item carries. */
const FAILURE_MESSAGES = 3;
const FAILURE_CHARS = 500;

interface OutputLine {
  custom_id?: unknown;
  response?: { status_code?: unknown; body?: unknown } | null;
  error?: { code?: unknown; message?: unknown } | null;
}

interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number } | null;
}

export function openAIBatchApi(setup: ClientSetup, sdk: OpenAI): ProviderBatchApi<Batch> {
  const signalOf = (s: AbortSignal | undefined): { signal?: AbortSignal } => (s ? { signal: s } : {});
  const wire: BatchWire<Batch> = {
    provider: 'openai',
    sdkErrors: OpenAI,
    async create(requests: readonly BatchRequest[], signal) {
      const lines = requests.map((r) =>
        JSON.stringify({
          custom_id: r.customId,
          method: 'POST',
          url: '/v1/chat/completions',
          body: {
            model: setup.config.model,
            messages: r.messages.map((m) => ({ role: m.role, content: m.content })),
            // As for a single call: OpenAI's own API wants max_completion_tokens, compatible servers max_tokens.
            ...(setup.endpoint.isOfficial ? { max_completion_tokens: r.maxTokens } : { max_tokens: r.maxTokens }),
          },
        }),
      );
      const upload = await toFile(Buffer.from(`${lines.join('\n')}\n`, 'utf8'), 'rlm-batch.jsonl', { type: 'application/jsonl' });
      const file = await sdk.files.create({ file: upload, purpose: 'batch' }, signalOf(signal));
      return sdk.batches.create({ input_file_id: file.id, endpoint: '/v1/chat/completions', completion_window: '24h', metadata: { created_by: 'rlm' } }, signalOf(signal));
    },
    retrieve: (id, signal) => sdk.batches.retrieve(id, signalOf(signal)),
    cancel: (id) => sdk.batches.cancel(id),
    snapshot: snapshotOf,
    async resultTexts(id, signal) {
      const batch = await sdk.batches.retrieve(id, signalOf(signal));
      const texts: string[] = [];
      for (const fileId of [batch.output_file_id, batch.error_file_id]) {
        if (typeof fileId === 'string' && fileId !== '') texts.push(await (await sdk.files.content(fileId, signalOf(signal))).text());
      }
      return texts;
    },
    outcomeOf: (line, snapshot) => outcomeOf(line as OutputLine, snapshot, setup),
  };
  return new ProviderBatchApi(setup, wire);
}

function outcomeOf(line: OutputLine, snapshot: BatchSnapshot, setup: ClientSetup): BatchOutcome {
  const customId = typeof line.custom_id === 'string' ? line.custom_id : '';
  const code = typeof line.error?.code === 'string' ? line.error.code : undefined;
  const message = typeof line.error?.message === 'string' ? line.error.message : undefined;
  if (code === 'batch_expired') return { customId, error: { kind: 'batch_expired', message: message ?? 'the batch ended (24 h) before this request ran' } };
  if (code === 'batch_cancelled') return { customId, error: { kind: 'batch_canceled', message: message ?? 'the batch was cancelled before this request ran' } };
  const status = line.response?.status_code;
  const body = line.response?.body as { choices?: Array<{ message?: { content?: unknown }; finish_reason?: unknown }>; model?: unknown; usage?: OpenAIUsage; error?: { message?: unknown } } | undefined;
  if (status !== 200 || !Array.isArray(body?.choices)) {
    const why = typeof body?.error?.message === 'string' ? body.error.message : message ?? `HTTP ${String(status)}`;
    return { customId, error: { kind: snapshot.status === 'expired' ? 'batch_expired' : 'batch_errored', message: why } };
  }
  const choice = body.choices[0];
  const text = typeof choice?.message?.content === 'string' ? choice.message.content : '';
  const usage = body.usage;
  const tokens = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);
  const cached = tokens(usage?.prompt_tokens_details?.cached_tokens);
  return {
    customId,
    completion: {
      text,
      usage: batchUsage({ inputTokens: tokens(usage?.prompt_tokens), outputTokens: tokens(usage?.completion_tokens), ...(cached ? { cacheReadTokens: cached } : {}) }, setup),
      finishReason: normaliseFinishReason(typeof choice?.finish_reason === 'string' ? choice.finish_reason : null),
      model: typeof body.model === 'string' && body.model ? body.model : setup.config.model,
    },
  };
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
  const failure = batch.status === 'failed' ? failureOf(batch) : undefined;
  return { id: batch.id, status: batch.status, ended, counts, ...(failure ? { failure } : {}) };
}

/** A failed batch's `errors.data` (e.g. the input file's validation errors) as one line. */
function failureOf(batch: Batch): string {
  const data = Array.isArray(batch.errors?.data) ? batch.errors.data : [];
  const said = data
    .slice(0, FAILURE_MESSAGES)
    .map((e) => {
      const said = [typeof e?.code === 'string' ? e.code : '', typeof e?.message === 'string' ? e.message : ''].filter(Boolean).join(': ');
      return typeof e?.line === 'number' && said ? `${said} (line ${e.line})` : said;
    })
    .filter(Boolean);
  const more = data.length > FAILURE_MESSAGES ? `; and ${data.length - FAILURE_MESSAGES} more` : '';
  const text = said.length ? `${said.join('; ')}${more}` : 'the provider gave no reason';
  return text.length > FAILURE_CHARS ? `${text.slice(0, FAILURE_CHARS)}…` : text;
}
