// How a run uses provider batch APIs for llm_query_batched (--batch, rlm.subCallBatch), and the
// batches a recorded run left, offered to `rlm continue` so it polls them instead of sending again.
import { createHash } from 'node:crypto';
import { CUSTOM_ID, PROVIDER_BATCH_ID } from '../models/batchTypes';
import type { ModelClient } from '../models/modelTypes';
import type { RunNode } from '../trajectory/treeTypes';

export type SubCallBatchMode = 'off' | 'auto' | 'always';

export const SUB_CALL_BATCH_MODES: readonly SubCallBatchMode[] = ['off', 'auto', 'always'];

/** `auto` sends a call as a provider batch from this many prompts (those the cache does not answer). */
export const DEFAULT_BATCH_MIN_PROMPTS = 20;

export interface SubCallBatchOptions {
  mode: SubCallBatchMode;
  /** auto: the fewest prompts (left after the cache) that go as a batch. Default 20. */
  minPrompts?: number;
  /** Polling: the first wait, growing ×1.5 up to the longest. Default 2 s and 60 s. */
  pollFirstMs?: number;
  pollMaxMs?: number;
  /** How long a batch may take before its items fail (the providers' window is 24 h). Default 25 h. */
  maxWaitMs?: number;
  /** Batches a recorded run created, validated (recordedBatchesOf): matched by their items' hashes. */
  recorded?: RecordedBatch[];
  /** Injected wait for tests; default a timer that ends early when the signal fires. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** A batch as a record names it: used only where provider, endpoint and model match the ones configured now. */
export interface RecordedBatch {
  provider: 'openai' | 'anthropic';
  endpoint: string;
  model: string;
  providerBatchId: string;
  /** promptHash → customId. */
  items: Map<string, string>;
}

/**
 * What identifies one request of a batch: the provider, model, max tokens and prompt. A resumed batch
 * is used only for requests whose hash is among its items, so a record cannot answer other prompts.
 */
export function providerBatchItemHash(client: Pick<ModelClient, 'provider' | 'model'>, maxTokens: number, prompt: string): string {
  return createHash('sha256').update(`${client.provider}\0${client.model}\0${maxTokens}\0${prompt}`).digest('hex').slice(0, 32);
}

const HASH = /^[0-9a-f]{32}$/;

/**
 * The provider batches a recorded run created, from its tree (child runs included). The record is
 * hostile: an id or custom id of the wrong shape is dropped (it would go into a URL path), and the
 * endpoint is kept only to be compared with the endpoint configured now, never to be contacted.
 */
export function recordedBatchesOf(run: RunNode | undefined): RecordedBatch[] {
  const out: RecordedBatch[] = [];
  const visit = (node: RunNode): void => {
    for (const turn of node.turns) {
      for (const cell of turn.cells) {
        for (const b of cell.providerBatches ?? []) {
          if ((b.provider !== 'openai' && b.provider !== 'anthropic') || !PROVIDER_BATCH_ID.test(b.providerBatchId)) continue;
          const items = new Map<string, string>();
          for (const item of b.items) if (HASH.test(item.promptHash) && CUSTOM_ID.test(item.customId)) items.set(item.promptHash, item.customId);
          if (items.size > 0) out.push({ provider: b.provider, endpoint: b.endpoint, model: b.model, providerBatchId: b.providerBatchId, items });
        }
        for (const call of cell.subCalls) if (call.child) visit(call.child);
      }
    }
  };
  if (run) visit(run);
  return out;
}

/** A recorded batch that holds every one of `hashes` for this client, or undefined. */
export function matchRecordedBatch(recorded: readonly RecordedBatch[] | undefined, client: ModelClient, hashes: readonly string[]): RecordedBatch | undefined {
  return recorded?.find((b) => b.provider === client.provider && b.endpoint === client.endpoint && b.model === client.model && hashes.every((h) => b.items.has(h)));
}

/** The first turn holding a provider batch that never ended: where `rlm continue` takes an interrupted run up. */
export function interruptedBatchTurn(run: RunNode | undefined): number | undefined {
  for (const turn of run?.turns ?? []) {
    for (const cell of turn.cells) if (cell.providerBatches?.some((b) => !b.ended)) return turn.turn;
  }
  return undefined;
}

/** Per run tree: which endpoints have been found without batches (said once each). */
export interface BatchRuntime {
  options: SubCallBatchOptions;
  unsupported: Set<string>;
  /**
   * Cancels of provider batches still being sent after a Stop. The run ends only once they have (each
   * is bounded): the record of what was already billed must reach the trajectory before run.finished.
   */
  cancelling?: Set<Promise<unknown>>;
}
