// The one create/poll/read/cancel driver both provider batch APIs share; each wire (openaiBatch.ts,
// anthropicBatch.ts) only says how its objects and result lines look. The server is hostile
// (docs/security.md): every figure, id and line it sends is checked here before the loop sees it.
import { batchCall, batchEstimate, batchPriceFactor } from './batchCall';
import { PROVIDER_BATCH_ID } from './batchTypes';
import { errorInfo } from './clientSetup';
import type { ClientSetup } from './clientSetup';
import { InvalidResponseError } from './modelErrors';
import type { BatchApi, BatchCounts, BatchOutcome, BatchRequest, BatchResults, BatchSnapshot } from './modelTypes';
import type { SdkErrorClasses } from './sdkErrorMapping';

/** What a wire does with its SDK; the driver adds error mapping, checks and result-line handling. */
export interface BatchWire<Obj> {
  readonly provider: BatchApi['provider'];
  readonly sdkErrors: SdkErrorClasses;
  create(requests: readonly BatchRequest[], signal: AbortSignal | undefined): Promise<Obj>;
  retrieve(id: string, signal: AbortSignal | undefined): Promise<Obj>;
  cancel(id: string): Promise<Obj>;
  /** The provider's object as a snapshot; its counts are checked by the driver afterwards. */
  snapshot(obj: Obj, requested?: number): BatchSnapshot;
  /** The JSONL texts holding an ended batch's results (OpenAI: output and error files; Anthropic: one). */
  resultTexts(id: string, signal: AbortSignal | undefined): Promise<string[]>;
  /** One parsed result line as an outcome (customId '' when the line names none). */
  outcomeOf(line: Record<string, unknown>, snapshot: BatchSnapshot): BatchOutcome;
}

/** A provider's count can be anything: a count that is not a whole number from 0 to the total is clamped. */
const MAX_COUNT = 1_000_000_000;

export class ProviderBatchApi<Obj> implements BatchApi {
  readonly provider: BatchApi['provider'];
  readonly priceFactor: number;

  // True private fields: the setup holds the key, and must not show in logs or JSON of the client.
  readonly #setup: ClientSetup;
  readonly #wire: BatchWire<Obj>;

  constructor(setup: ClientSetup, wire: BatchWire<Obj>) {
    this.#setup = setup;
    this.#wire = wire;
    this.provider = wire.provider;
    this.priceFactor = batchPriceFactor(setup);
  }

  estimateCostUsd(inputTokens: number, outputTokens: number): number | null {
    return batchEstimate(this.#setup, inputTokens, outputTokens);
  }

  async create(requests: readonly BatchRequest[], signal?: AbortSignal): Promise<BatchSnapshot> {
    const obj = await batchCall(this.#setup, this.#wire.sdkErrors, signal, { unsupported: true }, (s) => this.#wire.create(requests, s));
    return this.#checked(obj, requests.length);
  }

  async retrieve(id: string, signal?: AbortSignal): Promise<BatchSnapshot> {
    return this.#checked(await batchCall(this.#setup, this.#wire.sdkErrors, signal, { missing: id }, (s) => this.#wire.retrieve(id, s)));
  }

  async cancel(id: string): Promise<BatchSnapshot> {
    return this.#checked(await batchCall(this.#setup, this.#wire.sdkErrors, undefined, { missing: id }, () => this.#wire.cancel(id)));
  }

  async results(snapshot: BatchSnapshot, signal?: AbortSignal): Promise<BatchResults> {
    const texts = await batchCall(this.#setup, this.#wire.sdkErrors, signal, { missing: snapshot.id }, (s) => this.#wire.resultTexts(snapshot.id, s));
    const outcomes: BatchOutcome[] = [];
    let malformedLines = 0;
    for (const text of texts) {
      for (const line of text.split('\n')) {
        if (line.trim() === '') continue;
        const parsed = parseObject(line);
        // One bad line costs the request it was about (it will have no result), not the whole batch.
        if (!parsed) malformedLines++;
        else outcomes.push(this.#wire.outcomeOf(parsed, snapshot));
      }
    }
    return { outcomes, malformedLines };
  }

  /** The snapshot with an id safe to put in a URL path and counts that add up. */
  #checked(obj: Obj, requested?: number): BatchSnapshot {
    const snapshot = this.#wire.snapshot(obj, requested);
    if (!PROVIDER_BATCH_ID.test(snapshot.id)) {
      throw new InvalidResponseError(`the server named its batch ${JSON.stringify(String(snapshot.id).slice(0, 80))}, which is not a batch id (letters, digits, '_' and '-')`, errorInfo(this.#setup));
    }
    return { ...snapshot, counts: saneCounts(snapshot.counts, requested) };
  }
}

export function saneCounts(c: BatchCounts, requested: number | undefined): BatchCounts {
  const whole = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.min(MAX_COUNT, Math.floor(n)) : 0);
  const out: BatchCounts = { total: whole(c.total), succeeded: whole(c.succeeded), errored: whole(c.errored), expired: whole(c.expired), canceled: whole(c.canceled), processing: whole(c.processing) };
  if (requested !== undefined) out.total = requested;
  // Each part is at most what the total leaves: "50 of 40 done" would mislead the user and the bill.
  let left = out.total;
  for (const key of ['succeeded', 'errored', 'expired', 'canceled', 'processing'] as const) {
    out[key] = Math.min(out[key], left);
    left -= out[key];
  }
  return out;
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(line);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
