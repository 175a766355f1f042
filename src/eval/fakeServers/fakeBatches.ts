// The batch endpoints of the fake servers, following the real wire formats. OpenAI: POST /v1/files
// (multipart, purpose "batch"), POST /v1/batches, GET /v1/batches/{id}, POST /v1/batches/{id}/cancel,
// GET /v1/files/{id}/content (output and error files). Anthropic: POST /v1/messages/batches,
// GET /v1/messages/batches/{id}, POST .../cancel, GET .../results (JSONL). A batch moves through its
// states on the server's clock (validating → in_progress → completed; Anthropic in_progress → ended),
// its requests finish progressively over `processingMs` and are answered by the server's `respond`
// like ordinary completions; `fate` makes chosen requests fail or expire, cancel stops the rest.
import { randomBytes } from 'node:crypto';
/** The wire a batch was created on (the fake servers' FakeProtocol; declared here so the types file can import this one). */
type BatchWire = 'openai' | 'anthropic';

/** What happens to one request of a batch. */
type FakeBatchFate = 'answer' | 'error' | 'expire';

export interface FakeBatchOptions {
  /** false: the server has no batch endpoints (404), like a compatible server without them. Default true. */
  enabled?: boolean;
  /** OpenAI: how long a new batch stays `validating`. Default 0. */
  validatingMs?: number;
  /** How long the requests take, finishing evenly over this time. Default 0 (all at once). */
  processingMs?: number;
  /** A request's fate from its custom id, position and prompt text; default every request is answered. */
  fate?: (item: { customId: string; index: number; prompt: string }) => FakeBatchFate;
  /**
   * OpenAI: the batch fails as a whole once created (its input did not validate): `status: failed`,
   * these `errors.data[]`, no output or error file. Anthropic has no such state (it refuses the create).
   */
  failWith?: Array<{ code: string; message: string; line?: number }>;
  /** Hostile server: the batch stays in progress forever, whatever the clock says. */
  neverEnds?: boolean;
  /** A slow provider: the answer to a cancel request comes this many real milliseconds late. */
  cancelDelayMs?: number;
  /** Hostile server: rewrites what a results read returns (OpenAI output/error files, Anthropic results JSONL). */
  rewriteResults?: (text: string, batchId: string) => string;
  /** Hostile server: rewrites a batch object before it is sent (e.g. a foreign results_url, wild counts). */
  rewriteObject?: (json: Record<string, unknown>) => Record<string, unknown>;
}

/** One request's answer as the server's `respond` gave it: a completion body, or an error. */
export type FakeItemAnswer = { ok: true; body: Record<string, unknown> } | { ok: false; status: number; error: { type: string; message: string } };

interface FakeBatchHooks {
  protocol: BatchWire;
  now: () => number;
  /** Answers one request body as the completion endpoint would (without streaming). */
  answer: (body: Record<string, unknown>) => Promise<FakeItemAnswer>;
}

interface Item {
  customId: string;
  body: Record<string, unknown>;
  fate: FakeBatchFate;
  result?: { state: 'succeeded' | 'errored' | 'expired' | 'canceled'; answer?: FakeItemAnswer };
}

interface FakeBatch {
  id: string;
  createdAt: number;
  inputFileId?: string;
  items: Item[];
  cancelledAt?: number;
  endedAt?: number;
  status: string;
  outputFileId?: string;
  errorFileId?: string;
}

interface FakeBatchReply {
  status: number;
  /** JSON payload, or raw text with its content type. */
  json?: unknown;
  text?: string;
  contentType?: string;
}

export class FakeBatchStore {
  /** Batches created, in order (tests count them: a resumed run must not create a second one). */
  readonly batches: FakeBatch[] = [];
  private readonly files = new Map<string, { filename: string; purpose: string; text: string; createdAt: number }>();
  private counter = 0;
  /** Ids unique across servers, as the providers' are: a record made on one server names nothing on another. */
  private readonly tag = randomBytes(4).toString('hex');

  constructor(
    private readonly hooks: FakeBatchHooks,
    private readonly options: FakeBatchOptions,
  ) {}

  get creations(): number {
    return this.batches.length;
  }

  get enabled(): boolean {
    return this.options.enabled !== false;
  }

  /** The reply for a batch route, or undefined when `method path` is not one. */
  async handle(method: string, path: string, raw: Buffer, contentType: string, origin: string): Promise<FakeBatchReply | undefined> {
    if (!this.enabled) return undefined;
    return this.hooks.protocol === 'openai' ? this.openai(method, path, raw, contentType) : this.anthropic(method, path, raw, origin);
  }

  private async cancelDelay(): Promise<void> {
    const ms = this.options.cancelDelayMs ?? 0;
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
  }

  // ---- OpenAI ----

  private async openai(method: string, path: string, raw: Buffer, contentType: string): Promise<FakeBatchReply | undefined> {
    let m: RegExpExecArray | null;
    if (method === 'POST' && path === '/v1/files') return this.upload(raw, contentType);
    if (method === 'GET' && (m = /^\/v1\/files\/([^/]+)\/content$/.exec(path))) {
      const file = this.files.get(m[1]!);
      if (!file) return openAIError(404, `No such File object: ${m[1]}`);
      const owner = this.batches.find((b) => b.outputFileId === m![1] || b.errorFileId === m![1]);
      const text = owner && this.options.rewriteResults ? this.options.rewriteResults(file.text, owner.id) : file.text;
      return { status: 200, text, contentType: 'application/octet-stream' };
    }
    if (method === 'POST' && path === '/v1/batches') return this.openaiCreate(raw);
    if ((m = /^\/v1\/batches\/([^/]+)(\/cancel)?$/.exec(path))) {
      const batch = this.batches.find((b) => b.id === m![1]);
      if (!batch) return openAIError(404, `No batch found with id '${m[1]}'.`);
      if (method === 'POST' && m[2]) {
        await this.cancelDelay();
        if (!batch.endedAt && batch.cancelledAt === undefined) batch.cancelledAt = this.hooks.now();
        await this.advance(batch);
        // OpenAI answers a cancel with the batch `cancelling`; the next poll finds it `cancelled`.
        return { status: 200, json: this.openaiObject(batch, batch.endedAt === undefined || batch.status === 'cancelled' ? 'cancelling' : undefined) };
      }
      if (method === 'GET' && !m[2]) {
        await this.advance(batch);
        return { status: 200, json: this.openaiObject(batch) };
      }
    }
    return undefined;
  }

  private upload(raw: Buffer, contentType: string): FakeBatchReply {
    const boundary = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType);
    if (!boundary) return openAIError(400, 'The request must be multipart/form-data with a boundary.');
    const parts = parseMultipart(raw.toString('utf8'), boundary[1] ?? boundary[2]!);
    const purpose = parts.find((p) => p.name === 'purpose')?.value;
    const file = parts.find((p) => p.name === 'file');
    if (!file || file.filename === undefined) return openAIError(400, "Missing required parameter: 'file'.");
    if (purpose !== 'batch') return openAIError(400, `Invalid value for 'purpose': ${String(purpose)}.`);
    const id = `file-fake${this.tag}${++this.counter}`;
    const createdAt = Math.floor(this.hooks.now() / 1000);
    this.files.set(id, { filename: file.filename, purpose, text: file.value, createdAt });
    return { status: 200, json: { id, object: 'file', bytes: Buffer.byteLength(file.value), created_at: createdAt, filename: file.filename, purpose, status: 'processed', status_details: null } };
  }

  private openaiCreate(raw: Buffer): FakeBatchReply {
    const body = parseJson(raw);
    if (!body) return openAIError(400, 'We could not parse the JSON body of your request.');
    if (body.endpoint !== '/v1/chat/completions') return openAIError(400, `Invalid value for 'endpoint': ${String(body.endpoint)}.`);
    if (body.completion_window !== '24h') return openAIError(400, "Invalid value for 'completion_window': only '24h' is supported.");
    const file = typeof body.input_file_id === 'string' ? this.files.get(body.input_file_id) : undefined;
    if (!file) return openAIError(400, `Invalid 'input_file_id': ${String(body.input_file_id)}.`);
    const items: Item[] = [];
    const seen = new Set<string>();
    for (const [index, line] of file.text.split('\n').entries()) {
      if (line.trim() === '') continue;
      const request = parseJson(Buffer.from(line));
      const customId = request?.custom_id;
      if (!request || typeof customId !== 'string' || request.method !== 'POST' || request.url !== '/v1/chat/completions' || !isObject(request.body)) {
        return openAIError(400, `Line ${index + 1} of the input file is not a valid batch request.`);
      }
      if (seen.has(customId)) return openAIError(400, `Duplicate custom_id '${customId}' in the input file.`);
      seen.add(customId);
      items.push(this.item(customId, request.body, items.length));
    }
    const batch: FakeBatch = { id: `batch_fake${this.tag}${++this.counter}`, createdAt: this.hooks.now(), inputFileId: body.input_file_id as string, items, status: 'validating' };
    this.batches.push(batch);
    return { status: 200, json: this.openaiObject(batch) };
  }

  private openaiObject(batch: FakeBatch, statusOverride?: string): Record<string, unknown> {
    const done = batch.items.filter((i) => i.result?.state === 'succeeded').length;
    const failed = batch.items.filter((i) => i.result?.state === 'errored').length;
    const secs = (ms: number | undefined): number | null => (ms === undefined ? null : Math.floor(ms / 1000));
    const failure = batch.status === 'failed' && this.options.failWith;
    return this.rewritten({
      id: batch.id,
      object: 'batch',
      endpoint: '/v1/chat/completions',
      errors: failure ? { object: 'list', data: failure.map((e) => ({ code: e.code, message: e.message, param: null, line: e.line ?? null })) } : null,
      input_file_id: batch.inputFileId,
      completion_window: '24h',
      status: statusOverride ?? batch.status,
      output_file_id: batch.outputFileId ?? null,
      error_file_id: batch.errorFileId ?? null,
      created_at: secs(batch.createdAt),
      in_progress_at: null,
      expires_at: secs(batch.createdAt + 24 * 3600_000),
      completed_at: batch.status === 'completed' ? secs(batch.endedAt) : null,
      cancelled_at: batch.status === 'cancelled' ? secs(batch.endedAt) : null,
      request_counts: { total: batch.items.length, completed: done, failed },
      metadata: { created_by: 'rlm' },
    });
  }

  private rewritten(json: Record<string, unknown>): Record<string, unknown> {
    return this.options.rewriteObject ? this.options.rewriteObject(json) : json;
  }

  /** Writes the output and error files of an ended OpenAI batch. */
  private openaiFiles(batch: FakeBatch): void {
    const output: string[] = [];
    const errors: string[] = [];
    for (const [index, item] of batch.items.entries()) {
      const id = `batch_req_fake${index}`;
      const r = item.result;
      if (r?.state === 'succeeded' && r.answer?.ok) {
        output.push(JSON.stringify({ id, custom_id: item.customId, response: { status_code: 200, request_id: `req_${id}`, body: r.answer.body }, error: null }));
      } else if (r?.state === 'errored' && r.answer && !r.answer.ok) {
        errors.push(JSON.stringify({ id, custom_id: item.customId, response: { status_code: r.answer.status, request_id: `req_${id}`, body: { error: { message: r.answer.error.message, type: r.answer.error.type, param: null, code: null } } }, error: null }));
      } else {
        const code = r?.state === 'canceled' ? 'batch_cancelled' : 'batch_expired';
        const message = code === 'batch_cancelled' ? 'This request was not executed because the batch was cancelled.' : 'This request could not be executed before the completion window expired.';
        errors.push(JSON.stringify({ id, custom_id: item.customId, response: null, error: { code, message } }));
      }
    }
    const at = Math.floor(this.hooks.now() / 1000);
    if (output.length) {
      batch.outputFileId = `file-fake${this.tag}${++this.counter}`;
      this.files.set(batch.outputFileId, { filename: 'batch_output.jsonl', purpose: 'batch_output', text: `${output.join('\n')}\n`, createdAt: at });
    }
    if (errors.length) {
      batch.errorFileId = `file-fake${this.tag}${++this.counter}`;
      this.files.set(batch.errorFileId, { filename: 'batch_errors.jsonl', purpose: 'batch_output', text: `${errors.join('\n')}\n`, createdAt: at });
    }
  }

  // ---- Anthropic ----

  private async anthropic(method: string, path: string, raw: Buffer, origin: string): Promise<FakeBatchReply | undefined> {
    if (method === 'POST' && path === '/v1/messages/batches') {
      const body = parseJson(raw);
      if (!body || !Array.isArray(body.requests) || body.requests.length === 0) return anthropicError(400, 'requests: Field required');
      const items: Item[] = [];
      const seen = new Set<string>();
      for (const [index, request] of (body.requests as unknown[]).entries()) {
        const r = isObject(request) ? request : undefined;
        const customId = r?.custom_id;
        if (typeof customId !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(customId)) return anthropicError(400, `requests.${index}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`);
        if (!isObject(r?.params) || typeof r.params.max_tokens !== 'number') return anthropicError(400, `requests.${index}.params.max_tokens: Field required`);
        if (seen.has(customId)) return anthropicError(400, `Duplicate custom_id: ${customId}`);
        seen.add(customId);
        items.push(this.item(customId, r.params, index));
      }
      const batch: FakeBatch = { id: `msgbatch_fake${this.tag}${++this.counter}`, createdAt: this.hooks.now(), items, status: 'in_progress' };
      this.batches.push(batch);
      return { status: 200, json: this.anthropicObject(batch, origin) };
    }
    const m = /^\/v1\/messages\/batches\/([^/]+)(\/cancel|\/results)?$/.exec(path);
    if (!m) return undefined;
    const batch = this.batches.find((b) => b.id === m[1]);
    if (!batch) return anthropicError(404, `message_batch ${m[1]} not found`);
    if (method === 'POST' && m[2] === '/cancel') {
      await this.cancelDelay();
      if (!batch.endedAt && batch.cancelledAt === undefined) batch.cancelledAt = this.hooks.now();
      await this.advance(batch);
      return { status: 200, json: this.anthropicObject(batch, origin, batch.endedAt === undefined ? 'canceling' : undefined) };
    }
    if (method !== 'GET') return undefined;
    await this.advance(batch);
    if (m[2] === '/results') {
      if (batch.endedAt === undefined) return anthropicError(400, `Message batch ${batch.id} has not finished processing.`);
      const lines = batch.items.map((item) => JSON.stringify({ custom_id: item.customId, result: anthropicResult(item) }));
      const text = `${lines.join('\n')}\n`;
      return { status: 200, text: this.options.rewriteResults ? this.options.rewriteResults(text, batch.id) : text, contentType: 'application/binary' };
    }
    return { status: 200, json: this.anthropicObject(batch, origin) };
  }

  private anthropicObject(batch: FakeBatch, origin: string, statusOverride?: string): Record<string, unknown> {
    const count = (state: string): number => batch.items.filter((i) => i.result?.state === state).length;
    const iso = (ms: number | undefined): string | null => (ms === undefined ? null : new Date(ms).toISOString());
    const ended = batch.endedAt !== undefined;
    return this.rewritten({
      id: batch.id,
      type: 'message_batch',
      processing_status: statusOverride ?? (ended ? 'ended' : batch.cancelledAt !== undefined ? 'canceling' : 'in_progress'),
      request_counts: { processing: batch.items.filter((i) => !i.result).length, succeeded: count('succeeded'), errored: count('errored'), canceled: count('canceled'), expired: count('expired') },
      created_at: iso(batch.createdAt),
      expires_at: iso(batch.createdAt + 24 * 3600_000),
      ended_at: iso(batch.endedAt),
      cancel_initiated_at: iso(batch.cancelledAt),
      archived_at: null,
      results_url: ended ? `${origin}/v1/messages/batches/${batch.id}/results` : null,
    });
  }

  // ---- shared ----

  private item(customId: string, body: Record<string, unknown>, index: number): Item {
    const messages = Array.isArray(body.messages) ? (body.messages as Array<{ content?: unknown }>) : [];
    const prompt = messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
    return { customId, body, fate: this.options.fate?.({ customId, index, prompt }) ?? 'answer' };
  }

  /** Moves the batch on to where the clock says it is: requests finish evenly over processingMs. */
  private async advance(batch: FakeBatch): Promise<void> {
    if (batch.endedAt !== undefined || this.options.neverEnds) return;
    if (this.options.failWith && this.hooks.protocol === 'openai') {
      // A batch whose input fails validation ends at once, with no request run (and none billed).
      batch.endedAt = this.hooks.now();
      batch.status = 'failed';
      return;
    }
    const now = this.hooks.now();
    const validating = this.hooks.protocol === 'openai' ? (this.options.validatingMs ?? 0) : 0;
    const startedAt = batch.createdAt + validating;
    const stopAt = batch.cancelledAt ?? Infinity;
    const at = Math.min(now, stopAt);
    if (at < startedAt) {
      if (batch.cancelledAt === undefined) return;
    }
    const processing = this.options.processingMs ?? 0;
    const fraction = at < startedAt ? 0 : processing <= 0 ? 1 : Math.min(1, (at - startedAt) / processing);
    const due = Math.floor(fraction * batch.items.length + 1e-9);
    if (batch.status === 'validating' && at >= startedAt) batch.status = 'in_progress';
    for (const item of batch.items.slice(0, due)) {
      if (item.result || item.fate === 'expire') continue;
      item.result = item.fate === 'error' ? { state: 'errored', answer: { ok: false, status: 400, error: { type: 'invalid_request_error', message: `the fake server was told to fail request ${item.customId}` } } } : await this.answered(item);
    }
    const allRun = batch.items.every((i) => i.result || i.fate === 'expire');
    if (batch.cancelledAt !== undefined) {
      for (const item of batch.items) item.result ??= { state: 'canceled' };
      this.end(batch, 'cancelled');
    } else if (fraction >= 1 && allRun) {
      const expired = batch.items.some((i) => !i.result);
      for (const item of batch.items) item.result ??= { state: 'expired' };
      this.end(batch, expired ? 'expired' : 'completed');
    }
  }

  private async answered(item: Item): Promise<NonNullable<Item['result']>> {
    const answer = await this.hooks.answer(item.body);
    return { state: answer.ok ? 'succeeded' : 'errored', answer };
  }

  private end(batch: FakeBatch, status: string): void {
    batch.endedAt = this.hooks.now();
    batch.status = status;
    if (this.hooks.protocol === 'openai') this.openaiFiles(batch);
  }
}

function anthropicResult(item: Item): Record<string, unknown> {
  const r = item.result;
  if (r?.state === 'succeeded' && r.answer?.ok) return { type: 'succeeded', message: r.answer.body };
  if (r?.state === 'errored' && r.answer && !r.answer.ok) return { type: 'errored', error: { type: 'error', error: { type: r.answer.error.type, message: r.answer.error.message } } };
  return { type: r?.state === 'canceled' ? 'canceled' : 'expired' };
}

function parseMultipart(text: string, boundary: string): Array<{ name: string; filename?: string; value: string }> {
  const parts: Array<{ name: string; filename?: string; value: string }> = [];
  for (const chunk of text.split(`--${boundary}`)) {
    const split = chunk.indexOf('\r\n\r\n');
    if (split < 0) continue;
    const head = chunk.slice(0, split);
    const name = /name="([^"]*)"/.exec(head)?.[1];
    if (name === undefined) continue;
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    parts.push({ name, ...(filename !== undefined ? { filename } : {}), value: chunk.slice(split + 4).replace(/\r\n$/, '') });
  }
  return parts;
}

function parseJson(raw: Buffer): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(raw.toString('utf8'));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function openAIError(status: number, message: string): FakeBatchReply {
  return { status, json: { error: { message, type: 'invalid_request_error', param: null, code: null } } };
}

function anthropicError(status: number, message: string): FakeBatchReply {
  return { status, json: { type: 'error', error: { type: status === 404 ? 'not_found_error' : 'invalid_request_error', message } } };
}
