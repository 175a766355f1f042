import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ActiveRun, TICK_MS, tickDelay } from '../../../src/vscode/run/activeRun';
import type { TrajectorySink } from '../../../src/vscode/run/activeRun';
import type { EventRecord, RunEvent } from '../../../src/core/trajectory/events';
import type { RlmRun } from '../../../src/core/loop/loopTypes';
import { finished, runStarted, scriptedRun, usage } from './runFakes';

class MemorySink implements TrajectorySink {
  readonly path = '/tmp/x.rlm.jsonl';
  readonly written: string[] = [];
  closed = false;
  write(record: EventRecord): void {
    this.written.push(record.type);
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}

test('drives the run, records events, writes them to the sink and derives the result from run.finished', async () => {
  const sink = new MemorySink();
  const run = scriptedRun('r1', [
    runStarted('r1'),
    { type: 'turn.started', runId: 'r1', turn: 1 },
    { type: 'model.delta', runId: 'r1', turn: 1, text: 'thinking' },
    { type: 'model.output', runId: 'r1', turn: 1, text: 'thinking\n```repl\nprint(1)\n```', usage: usage(100, 20, 0.001), latencyMs: 5, finishReason: 'stop', requestBytes: 10 },
    { type: 'cell.started', runId: 'r1', turn: 1, cellId: 'k1', code: 'print(1)' },
    { type: 'subcall.started', runId: 'r1', cellId: 'k1', callId: 'c1', kind: 'llm_query', depth: 1, model: { provider: 'openai', model: 'sub' }, prompt: 'p' },
    { type: 'subcall.finished', runId: 'r1', callId: 'c1', usage: usage(50, 5, null), latencyMs: 3 },
    finished('r1', 'forty-two', { inputTokens: 150, outputTokens: 25, costUsd: 0.001, costUnknown: true, subCalls: 1 }),
  ]);
  const seen: string[] = [];
  const active = new ActiveRun({ run, controller: new AbortController(), sink, question: 'q', now: () => 0 });
  active.subscribe((r) => seen.push(r.type));
  const result = await active.result;
  assert.equal(result.status, 'completed');
  assert.equal(result.answer, 'forty-two');
  assert.equal(sink.closed, true);
  assert.equal(sink.written.length, 8);
  assert.ok(!active.records().some((r) => r.type === 'model.delta'), 'deltas are not kept in the replay buffer');
  assert.equal(seen.length, 8, 'listeners see every record, deltas included');
  assert.equal(active.progress.subCalls, 1);
  assert.equal(active.progress.costUnknown, true);
  assert.equal(active.trajectoryPath, '/tmp/x.rlm.jsonl');
});

test('stop() aborts the signal and the run ends cancelled', async () => {
  const controller = new AbortController();
  const run = scriptedRun('r2', [runStarted('r2')], { hang: true, signal: controller.signal });
  const active = new ActiveRun({ run, controller, question: 'q', now: () => 0 });
  setTimeout(() => active.stop(), 5);
  const result = await active.result;
  assert.equal(result.status, 'cancelled');
  assert.equal(active.stopping, true);
});

test('a loop that throws ends as an error result carrying the typed error', async () => {
  const boom = new TypeError('bad wiring');
  const active = new ActiveRun({ run: scriptedRun('r3', [runStarted('r3')], { throwError: boom }), controller: new AbortController(), question: 'q', now: () => 0 });
  const result = await active.result;
  assert.equal(result.status, 'error');
  assert.equal(result.error?.kind, 'internal', 'a stable kind, never a (minified) class name');
  assert.equal(active.error, boom);
});

test('a throwing listener does not end the run for the others', async () => {
  const active = new ActiveRun({ run: scriptedRun('r4', [runStarted('r4'), finished('r4', 'ok')]), controller: new AbortController(), question: 'q', now: () => 0 });
  active.subscribe(() => {
    throw new Error('disposed view');
  });
  const result = await active.result;
  assert.equal(result.answer, 'ok');
});

test('a record is drawn at once after a quiet spell, and within TICK_MS during a burst (issue 31: 100 ms)', () => {
  assert.equal(tickDelay(1000, undefined), 0, 'the first record of a run: at once');
  assert.equal(tickDelay(5000, 1000), 0, 'after a quiet spell: at once');
  assert.equal(tickDelay(1010, 1000), TICK_MS - 10, 'right after a tick: when the interval is up');
  assert.equal(tickDelay(1000, 1000), TICK_MS);
  assert.equal(tickDelay(900, 1000), TICK_MS, 'a clock that went back never waits longer than the interval');
  assert.ok(TICK_MS <= 80, 'leaves room within 100 ms for posting and drawing');
});

test('the run schedules its ticks by tickDelay: one tick for a burst, the next one an interval later', async () => {
  let clock = 0;
  const timers: Array<{ fn: () => void; ms: number }> = [];
  const run = scriptedRun('r9', [runStarted('r9'), { type: 'turn.started', runId: 'r9', turn: 1 }, finished('r9', 'x', { inputTokens: 0, outputTokens: 0, costUsd: 0, costUnknown: false, subCalls: 0 })]);
  const active = new ActiveRun({ run, controller: new AbortController(), question: 'q', now: () => clock, setTimer: (fn, ms) => (timers.push({ fn, ms }), () => undefined) });
  let ticks = 0;
  active.onTick(() => ticks++);
  await active.result;
  assert.equal(timers[0]?.ms, 0, 'the first record waits for no interval');
  assert.equal(timers.length, 1, 'the records of one burst share that tick');
  assert.equal(ticks, 1, 'and the end ticks at once');
  clock = 10;
  active.append({ type: 'turn.started', runId: 'r9', turn: 2, seq: 100, ts: 10 });
  assert.equal(timers[1]?.ms, TICK_MS - 10, 'a record soon after a tick waits for the rest of the interval');
});

test('the answer is shown at its citations, before the coverage strip and run.finished (issue 33: the answer first)', async () => {
  let openGate: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (openGate = resolve));
  let seq = 0;
  const stamp = (e: RunEvent): EventRecord => ({ ...e, seq: ++seq, ts: 1_000 + seq }) as EventRecord;
  // The loop's order after a FINAL: answer, references, then the coverage scan (held here), then run.finished.
  const run: RlmRun = {
    runId: 'r9',
    async *[Symbol.asyncIterator]() {
      yield stamp(runStarted('r9'));
      yield stamp({ type: 'answer', runId: 'r9', text: 'see a.ts:3', forced: false, via: 'FINAL' });
      yield stamp({ type: 'references', runId: 'r9', references: [], unresolved: [] });
      await gate;
      yield stamp(finished('r9', 'see a.ts:3'));
    },
    run: () => Promise.reject(new Error('not used')),
  };
  const active = new ActiveRun({ run, controller: new AbortController(), question: 'q', now: () => 0 });
  let ended = false;
  void active.result.then(() => (ended = true));
  const shown = await active.answered;
  assert.equal(shown.answer, 'see a.ts:3');
  assert.equal(shown.status, 'completed');
  assert.equal(ended, false, 'the run is still recording its coverage');
  assert.ok(!active.records().some((r) => r.type === 'run.finished'));
  openGate();
  const result = await active.result;
  assert.equal(result.answer, 'see a.ts:3');
});

test('answered follows the answer kind (a draft is a limit), and is the result itself when no answer came', async () => {
  const draft = scriptedRun('r10', [runStarted('r10'), { type: 'answer', runId: 'r10', text: 'so far', forced: true, via: 'draft' }, { type: 'fallback', runId: 'r10', kind: 'references-unresolved', detail: 'x' }]);
  const shown = await new ActiveRun({ run: draft, controller: new AbortController(), question: 'q', now: () => 0 }).answered;
  assert.equal(shown.status, 'limit');
  assert.equal(shown.forced, true);
  const noAnswer = new ActiveRun({ run: scriptedRun('r11', [runStarted('r11')], { throwError: new TypeError('x') }), controller: new AbortController(), question: 'q', now: () => 0 });
  assert.equal(await noAnswer.answered, await noAnswer.result);
  // A child's answer is not the run's.
  const child = new ActiveRun({ run: scriptedRun('r12', [runStarted('r12'), { type: 'answer', runId: 'c1', text: 'child', forced: false, via: 'FINAL' }, { type: 'references', runId: 'c1', references: [], unresolved: [] }, finished('r12', 'root')]), controller: new AbortController(), question: 'q', now: () => 0 });
  assert.equal((await child.answered).answer, 'root');
});
