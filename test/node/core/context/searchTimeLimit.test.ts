// A pattern that backtracks without end (look-around sends it past ripgrep to a RegExp) never runs on
// the host's main thread: a timer keeps firing while it runs, it stops at its time limit with a clear
// error, and an abort (the cell's timeout, Stop, Ctrl-C) ends it at once. With and without ripgrep.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostSearch } from '../../../../src/core/context/hostSearch';
import type { PlannedFile } from '../../../../src/core/context/contextTypes';

const RG = existsSync('/usr/bin/rg') ? '/usr/bin/rg' : undefined;
const CATASTROPHIC = '(a+)+(?=b)';

/** Runs `work` while a 10 ms interval counts its ticks; the elapsed time and the ticks seen. */
async function timed<T>(work: () => Promise<T>): Promise<{ outcome: { ok: T } | { error: Error }; ms: number; ticks: number }> {
  let ticks = 0;
  const timer = setInterval(() => ticks++, 10);
  const started = performance.now();
  try {
    return { outcome: { ok: await work() }, ms: performance.now() - started, ticks };
  } catch (error) {
    return { outcome: { error: error as Error }, ms: performance.now() - started, ticks };
  } finally {
    clearInterval(timer);
  }
}

describe('search: a pattern that backtracks without end', () => {
  let dir: string;
  let files: PlannedFile[];
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-redos-'));
    // Two lines of 24 "a"s: about 2.5 s each for (a+)+(?=b) in V8, all of it in one exec() call.
    const text = `${'a'.repeat(24)}\n${'a'.repeat(24)}\n`;
    writeFileSync(join(dir, 'as.txt'), text);
    files = [{ path: 'as.txt', abs: join(dir, 'as.txt'), bytes: Buffer.byteLength(text) }];
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const engine of RG ? [{ name: 'with ripgrep', ripgrepPath: RG }, { name: 'without ripgrep' }] : [{ name: 'without ripgrep' }]) {
    const options = { ...('ripgrepPath' in engine ? { ripgrepPath: engine.ripgrepPath } : {}), maxFileBytes: 1 << 20 };

    it(`${engine.name}: control, a look-ahead that does not backtrack finds its hits`, async () => {
      const run = await timed(() => hostSearch({ pattern: 'a+(?=\\n)', flags: '', maxHits: 10 }, files, { ...options, patternTimeLimitMs: 300 }));
      assert.ok('ok' in run.outcome, 'error' in run.outcome ? run.outcome.error.message : '');
      assert.deepEqual(
        'hits' in run.outcome.ok ? run.outcome.ok.hits.map((h) => h.line) : run.outcome.ok,
        [1, 2],
      );
    });

    it(`${engine.name}: stops at its time limit with a clear error, the event loop turning all along`, async () => {
      const run = await timed(() => hostSearch({ pattern: CATASTROPHIC, flags: '', maxHits: 10 }, files, { ...options, patternTimeLimitMs: 300 }));
      assert.ok('error' in run.outcome, 'the search must fail');
      assert.match(run.outcome.error.message, /^pattern took too long: "\(a\+\)\+\(\?=b\)" ran over 0\.3 s on as\.txt and was stopped; simplify it/);
      assert.ok(run.ms < 2000, `ended in ${Math.round(run.ms)} ms (limit 300 ms)`);
      // A main thread frozen by the RegExp lets at most one tick through (the one overdue when it is free).
      assert.ok(run.ticks >= 5, `${run.ticks} timer ticks in ${Math.round(run.ms)} ms`);
    });

    it(`${engine.name}: an abort (cell timeout, Stop, Ctrl-C) ends it at once`, async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('stopped by the test')), 300);
      const run = await timed(() => hostSearch({ pattern: CATASTROPHIC, flags: '', maxHits: 10 }, files, { ...options, patternTimeLimitMs: 60_000, signal: controller.signal }));
      assert.ok('error' in run.outcome, 'the search must fail');
      assert.equal(run.outcome.error.message, 'stopped by the test');
      assert.ok(run.ms < 1300, `ended ${Math.round(run.ms - 300)} ms after the abort`);
      assert.ok(run.ticks >= 5, `${run.ticks} timer ticks in ${Math.round(run.ms)} ms`);
    });
  }

  it('an abort before the worker is up ends the search too', { timeout: 10_000 }, async () => {
    for (let i = 0; i < 5; i++) {
      const controller = new AbortController();
      const pending = hostSearch({ pattern: CATASTROPHIC, flags: '', maxHits: 10 }, files, { maxFileBytes: 1 << 20, patternTimeLimitMs: 60_000, signal: controller.signal });
      setTimeout(() => controller.abort(new Error('stopped early')), i);
      await assert.rejects(pending, /stopped early/);
    }
  });
});
