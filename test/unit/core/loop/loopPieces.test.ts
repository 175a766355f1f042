// The loop's small pure parts: limits, budget, usage roll-up, bounded concurrency, child contexts,
// observations and prompts.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { boundedMap, linkSignals, raceAbort } from '../../../../src/core/loop/boundedMap';
import { SharedBudget } from '../../../../src/core/loop/budget';
import { childContextSource } from '../../../../src/core/loop/childContext';
import { DEFAULT_LIMITS, resolveLimits } from '../../../../src/core/loop/limits';
import { BudgetExceededError, InvalidLimitError } from '../../../../src/core/loop/loopErrors';
import { buildObservation } from '../../../../src/core/loop/observation';
import { describeContext, initialMessages } from '../../../../src/core/loop/prompts';
import { UsageMeter } from '../../../../src/core/loop/usageMeter';
import type { CellResult } from '../../../../src/core/repl/replTypes';

function cell(partial: Partial<CellResult>): CellResult {
  return { stdout: '', stderr: '', stdoutChars: 0, stderrChars: 0, newVariables: [], durationMs: 1, outIndex: 3, ...partial };
}

describe('loop pieces', () => {
  it('resolves limits with defaults and refuses impossible ones', () => {
    assert.equal(resolveLimits({}).maxIterations, 30);
    assert.equal(resolveLimits({ maxDepth: 0 }).maxDepth, 0);
    assert.throws(() => resolveLimits({ subCallConcurrency: 0 }), InvalidLimitError);
    assert.throws(() => resolveLimits({ maxCostUsd: -1 }), /maxCostUsd/);
    assert.throws(() => resolveLimits({ maxIterations: 2.5 }), /integer/);
  });

  it('rolls usage up to every ancestor and reports unknown cost as null', () => {
    const root = new UsageMeter(0);
    const child = new UsageMeter(0, root);
    child.addUsage({ inputTokens: 10, outputTokens: 5, costUsd: 0.5 });
    root.addUsage({ inputTokens: 1, outputTokens: 1, costUsd: null });
    child.addSubCall();
    assert.deepEqual(root.totals(100), { inputTokens: 11, outputTokens: 6, costUsd: null, costUnknown: true, subCalls: 1, iterations: 0, wallTimeMs: 100 });
    assert.equal(child.totals(10).costUsd, 0.5);
  });

  it('checks the shared budget and warns once at 80%', () => {
    let now = 0;
    const meter = new UsageMeter(0);
    const budget = new SharedBudget(resolveLimits({ maxTotalTokens: 100, maxWallTimeMs: 1000, maxSubCalls: 2 }), meter, 0, () => now);
    meter.addUsage({ inputTokens: 85, outputTokens: 0, costUsd: 0 });
    assert.deepEqual(budget.newWarnings().map((w) => w.limit), ['totalTokens']);
    assert.deepEqual(budget.newWarnings(), []);
    assert.equal(budget.exceeded(), undefined);
    meter.addUsage({ inputTokens: 15, outputTokens: 0, costUsd: 0 });
    const exceeded = budget.exceeded();
    assert.ok(exceeded instanceof BudgetExceededError);
    assert.equal(exceeded.limitKind, 'totalTokens');
    assert.equal(exceeded.spent, 100);
    assert.equal(exceeded.limit, 100);
    const fresh = new SharedBudget(resolveLimits({ maxWallTimeMs: 1000, maxSubCalls: 2 }), new UsageMeter(0), 0, () => now);
    now = 1000;
    assert.equal(fresh.exceeded()?.limitKind, 'wallTime');
    assert.equal(fresh.reserveSubCall(), true);
    assert.equal(fresh.reserveSubCall(), true);
    assert.equal(fresh.reserveSubCall(), false);
    assert.equal(fresh.subCallCapHit, true);
  });

  it('maps with bounded concurrency, in input order, skipping items after an abort', async () => {
    let inFlight = 0;
    let peak = 0;
    const controller = new AbortController();
    const results = await boundedMap(
      [...Array(20).keys()],
      4,
      controller.signal,
      async (n) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 5 + ((n * 7) % 5)));
        inFlight--;
        if (n === 9) controller.abort();
        return `ok ${n}`;
      },
      (n) => `skipped ${n}`,
    );
    assert.equal(peak, 4);
    assert.equal(results[0], 'ok 0');
    assert.equal(results[9], 'ok 9');
    assert.equal(results[19], 'skipped 19');
  });

  it('links signals with a timeout reason, and races work against an abort', async () => {
    const reason = new Error('too slow');
    const linked = linkSignals([new AbortController().signal], 10, () => reason);
    if (!linked.signal.aborted) await new Promise((r) => linked.signal.addEventListener('abort', r, { once: true }));
    assert.equal(linked.signal.reason, reason);
    linked.dispose();
    const controller = new AbortController();
    let late: string | undefined;
    const work = new Promise<string>((r) => setTimeout(() => r('session'), 30));
    const raced = raceAbort(work, controller.signal, (v) => (late = v));
    controller.abort(new Error('stop'));
    await assert.rejects(raced, /stop/);
    await work;
    assert.equal(late, 'session', 'what arrives after the abort is handed over, not leaked');
  });

  it('turns Python values into child contexts', () => {
    assert.deepEqual(childContextSource(null, 'the prompt'), { kind: 'text', text: 'the prompt', label: 'rlm_query prompt' });
    assert.equal(childContextSource('abc', 'p').kind, 'text');
    assert.deepEqual(childContextSource(new Map([['a.ts', 'x']]), 'p'), { kind: 'files', files: [{ path: 'a.ts', content: 'x' }] });
    const list = childContextSource([1, 2], 'p');
    assert.ok(list.kind === 'text' && String(list.text).includes('1'));
  });

  it('builds observations from head and tail with the true length, errors and new names', () => {
    const long = 'h'.repeat(5000) + 't'.repeat(5000);
    const text = buildObservation(cell({ stdout: long, stdoutChars: 250_000, newVariables: ['a', 'b'] }), 1000);
    assert.ok(text.length < 1300, String(text.length));
    assert.match(text, /250,000 chars/);
    assert.match(text, /_out\[3\]/);
    assert.match(text, /New variables: a, b/);
    const failed = buildObservation(cell({ error: { type: 'NameError', message: "name 'q' is not defined", traceback: 'Traceback (most recent call last):\n  File "<cell>", line 1\nNameError: ...' } }), 1000);
    assert.match(failed, /Error: NameError/);
    assert.match(failed, /Traceback/);
    const restarted = buildObservation(cell({ restarted: { reason: 'hard-timeout', detail: 'killed after 65 s' } }), 1000);
    assert.match(restarted, /variable you defined is gone/);
  });

  it('puts only metadata of the context in the first messages', () => {
    const meta = { type: 'dict' as const, totalChars: 1234, totalBytes: 1300, fileCount: 2, prefix: 'abc', files: [{ path: 'a.ts', chars: 1000 }, { path: 'b.ts', chars: 234 }], filesOmitted: 0, invalidUtf8Replacements: 0 };
    assert.match(describeContext(meta), /1,234 characters .* in 2 files/);
    const messages = initialMessages({ ...DEFAULT_LIMITS, depth: 0, subMaxTokens: 4096 }, 'Why?', meta, [{ question: 'Before?', answer: 'Yes.' }]);
    assert.equal(messages[0]?.role, 'system');
    assert.match(messages[0]!.content, /FINAL_VAR/);
    assert.match(messages[1]!.content, /Q: Before\?\nA: Yes\./);
    assert.match(messages[1]!.content, /Question: Why\?/);
  });

  it('tells the model which mode a folder context is in, and how to work with a lazy one', () => {
    const base = { type: 'dict' as const, totalChars: 3e9, totalBytes: 3e9, fileCount: 100_000, prefix: '', files: [], filesOmitted: 100_000, invalidUtf8Replacements: 0 };
    const lazy = describeContext({ ...base, mode: 'lazy', cacheBudgetBytes: 64 * 1024 * 1024 });
    assert.match(lazy, /Mode: lazy/);
    assert.match(lazy, /at most 64 MB/);
    assert.match(lazy, /search\(pattern, paths=/);
    assert.match(lazy, /ContextBudgetError/);
    assert.match(describeContext({ ...base, mode: 'eager' }), /Mode: eager/);
    assert.doesNotMatch(describeContext(base), /Mode:/);
  });
});
