// A scripted RlmRun: yields the given events (stamped) and honours the AbortSignal, like the loop.
import type { RlmRun, RunResult } from '../../../src/core/loop/loopTypes';
import type { EventRecord, RunEvent, UsageTotals } from '../../../src/core/trajectory/events';
import { allLayersOn } from '../../fakes/fakeProtections';

const ZERO_TOTALS: UsageTotals = { inputTokens: 0, outputTokens: 0, costUsd: 0, costUnknown: false, subCalls: 0, iterations: 0, wallTimeMs: 0 };

export function runStarted(runId: string, question = 'q'): RunEvent {
  const model = { provider: 'openai' as const, model: 'fake-model' };
  return {
    type: 'run.started',
    runId,
    depth: 0,
    question,
    context: { type: 'str', totalChars: 3, totalBytes: 3, fileCount: 1, prefix: 'abc', files: [], filesOmitted: 0, invalidUtf8Replacements: 0 },
    config: {
      root: model, sub: model, maxIterations: 30, maxDepth: 1, maxSubCalls: 500, maxConsecutiveErrors: 5, cellTimeoutMs: 60000,
      subCallTimeoutMs: 120000, subCallMaxTokens: 4096, subCallConcurrency: 16, observationMaxChars: 4000, outputCaptureMaxChars: 200000,
    },
    protections: allLayersOn(),
  };
}

export function usage(input: number, output: number, costUsd: number | null) {
  return { inputTokens: input, outputTokens: output, costUsd };
}

export function finished(runId: string, answer: string, totals: Partial<UsageTotals> = {}): RunEvent {
  return { type: 'run.finished', runId, status: 'completed', answer, forced: false, totals: { ...ZERO_TOTALS, ...totals } };
}

/** A run that emits `events`; with `hang`, it waits after them until aborted, then throws like the loop. */
export function scriptedRun(runId: string, events: RunEvent[], options: { hang?: boolean; signal?: AbortSignal; throwError?: Error } = {}): RlmRun {
  let seq = 0;
  const stamp = (e: RunEvent): EventRecord => ({ ...e, seq: ++seq, ts: 1_000 + seq }) as EventRecord;
  return {
    runId,
    async *[Symbol.asyncIterator]() {
      for (const e of events) {
        await Promise.resolve();
        yield stamp(e);
      }
      if (options.throwError) throw options.throwError;
      if (options.hang) {
        await new Promise<void>((resolve) => {
          if (options.signal?.aborted) resolve();
          options.signal?.addEventListener('abort', () => resolve(), { once: true });
        });
        yield stamp({ type: 'run.finished', runId, status: 'cancelled', forced: false, totals: ZERO_TOTALS });
      }
    },
    run(): Promise<RunResult> {
      throw new Error('not used by the extension');
    },
  };
}
