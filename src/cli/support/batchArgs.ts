// --batch off|auto|always and --batch-min N (rlm ask, rlm continue, rlm eval): whether llm_query_batched
// calls go as provider batches (half price, minutes to hours); see docs/batch.md.
import { DEFAULT_BATCH_MIN_PROMPTS, SUB_CALL_BATCH_MODES } from '../../core/loop/batchOptions';
import type { SubCallBatchMode, SubCallBatchOptions } from '../../core/loop/batchOptions';
import { positiveInt, UsageError } from './modelArgs';

export const BATCH_OPTIONS = {
  batch: { type: 'string' },
  'batch-min': { type: 'string' },
} as const;

/** The run's batch options, or undefined for --batch off (the default). */
export function parseBatchChoice(v: { batch?: string; 'batch-min'?: string }): SubCallBatchOptions | undefined {
  const mode = (v.batch ?? 'off').trim().toLowerCase();
  if (!(SUB_CALL_BATCH_MODES as readonly string[]).includes(mode)) throw new UsageError(`--batch must be off, auto or always, got "${v.batch ?? ''}"`);
  if (v['batch-min'] !== undefined && mode !== 'auto') throw new UsageError('--batch-min applies to --batch auto (the fewest prompts a call needs to go as a provider batch)');
  if (mode === 'off') return undefined;
  return { mode: mode as SubCallBatchMode, minPrompts: v['batch-min'] !== undefined ? positiveInt(v['batch-min'], '--batch-min') : DEFAULT_BATCH_MIN_PROMPTS };
}

export const BATCH_HELP = `  --batch MODE             llm_query_batched as provider batches (OpenAI Batch API, Anthropic Message
                           Batches): half price, results in minutes to 24 h. off (default), auto (calls
                           of at least --batch-min prompts), always. For offline jobs, not questions
                           you wait on (docs/batch.md)
  --batch-min N            with --batch auto: the fewest prompts that go as a batch (default ${DEFAULT_BATCH_MIN_PROMPTS})`;
