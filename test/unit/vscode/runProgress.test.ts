// The figures every surface shows come from one reducer (the run's tree) and are redrawn on one tick:
// the status bar, the progress notification and the chat read ActiveRun.progress, the trajectory view
// reads the same tree through its LiveFeed; at every tick they agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TreeBuilder } from '../../../src/core/trajectory/treeBuilder';
import type { EventRecord, RunEvent } from '../../../src/core/trajectory/events';
import { formatLiveLine, liveLineOf } from '../../../src/shared/text/liveLine';
import { ActiveRun } from '../../../src/vscode/run/activeRun';
import { activityAfter, progressOf } from '../../../src/vscode/run/runProgress';
import { LiveFeed } from '../../../src/vscode/trajectory/liveFeed';
import { headerView } from '../../../src/vscode/trajectory/runHeaderProjection';
import { finished, runStarted, scriptedRun, usage } from './runFakes';

const rec = (e: RunEvent, seq: number): EventRecord => ({ ...e, seq, ts: seq }) as EventRecord;

function localRunStarted(runId: string): RunEvent {
  const started = runStarted(runId) as Extract<RunEvent, { type: 'run.started' }>;
  const model = { provider: 'openai' as const, model: 'llama', baseUrl: 'http://127.0.0.1:11434/v1' };
  return { ...started, config: { ...started.config, root: model, sub: { ...model, baseUrl: 'http://192.168.1.20:8000/v1' } } };
}

const script: RunEvent[] = [
  runStarted('root'),
  { type: 'turn.started', runId: 'root', turn: 1 },
  { type: 'model.delta', runId: 'root', turn: 1, text: 'Count it.\n' },
  { type: 'model.output', runId: 'root', turn: 1, text: 'Count it.\n```repl\nx = 1\n```', usage: usage(100, 20, 0.001), latencyMs: 5, finishReason: 'stop', requestBytes: 10 },
  { type: 'cell.started', runId: 'root', turn: 1, cellId: 'c1', code: 'x = 1' },
  { type: 'subcall.started', runId: 'root', cellId: 'c1', callId: 's1', kind: 'llm_query', depth: 1, model: { provider: 'openai', model: 'sub' }, prompt: 'p' },
  { type: 'subcall.finished', runId: 'root', callId: 's1', response: 'r', usage: usage(50, 5, null), latencyMs: 3 },
  { type: 'cell.finished', runId: 'root', turn: 1, cellId: 'c1', stdout: '', stderr: '', newVariables: ['x'], durationMs: 2 } as unknown as RunEvent,
  { type: 'turn.started', runId: 'root', turn: 2 },
  finished('root', 'one', { inputTokens: 150, outputTokens: 25, costUsd: 0.001, costUnknown: true, subCalls: 1 }),
];

test('the live figures are the tree\'s: turns, sub-calls (child runs included), tokens and cost', () => {
  const tree = new TreeBuilder();
  script.forEach((e, i) => tree.apply(rec(e, i + 1)));
  const p = progressOf(tree.tree, 'finished');
  assert.equal(p.turn, 2);
  assert.equal(p.subCalls, 1);
  assert.equal(p.inputTokens, 150);
  assert.equal(p.costUnknown, true);
  assert.equal(formatLiveLine(p), 'turn 2 · 1 sub-call · 175 tokens · ≥ $0.0010');
});

test('a run whose models are all on this machine or the local network costs "local (no charge)"', () => {
  const tree = new TreeBuilder();
  tree.apply(rec(localRunStarted('r'), 1));
  tree.apply(rec({ type: 'model.output', runId: 'r', turn: 1, text: 'x', usage: usage(10, 1, 0), latencyMs: 1, finishReason: 'stop', requestBytes: 1 }, 2));
  assert.equal(formatLiveLine(progressOf(tree.tree, 'x')), 'turn 1 · 0 sub-calls · 11 tokens · local (no charge)');
  const nothingPriced = new TreeBuilder();
  nothingPriced.apply(rec(runStarted('r'), 1));
  nothingPriced.apply(rec({ type: 'model.output', runId: 'r', turn: 1, text: 'x', usage: usage(10, 1, null), latencyMs: 1, finishReason: 'stop', requestBytes: 1 }, 2));
  assert.equal(formatLiveLine(progressOf(nothingPriced.tree, 'x')), 'turn 1 · 0 sub-calls · 11 tokens · price unknown');
});

test('activity reads as words, and a child run does not move the root\'s', () => {
  let a = activityAfter('starting', rec({ type: 'turn.started', runId: 'root', turn: 1 }, 1), 'root');
  assert.equal(a, 'the model is thinking');
  a = activityAfter(a, rec({ type: 'turn.started', runId: 'child', turn: 1 }, 2), 'root');
  assert.equal(a, 'the model is thinking');
  assert.equal(activityAfter(a, rec({ type: 'cell.started', runId: 'root', turn: 1, cellId: 'c', code: '' }, 3), 'root'), 'running the code');
});

test('at every tick, the status bar\'s line and the trajectory view\'s header show the same figures', async () => {
  const active = new ActiveRun({
    run: scriptedRun('root', script),
    controller: new AbortController(),
    question: 'q',
    now: () => 0,
    // A tick right after each record (as if the tick interval were 0).
    setTimer: (fn) => (queueMicrotask(fn), () => undefined),
  });
  const feed = new LiveFeed({ run: active, onFlush: () => undefined });
  feed.start();
  let ticks = 0;
  active.onTick(() => {
    ticks++;
    const header = headerView(feed.root(), { source: 'live', format: 'live', problems: { count: 0, first: [] } });
    const p = active.progress;
    assert.equal(feed.root(), active.tree.tree, 'the view follows the run\'s own tree');
    assert.deepEqual(
      [header.iterations, header.totals.subCalls, header.totals.inputTokens, header.totals.outputTokens, header.totals.costUnknown],
      [p.turn, p.subCalls, p.inputTokens, p.outputTokens, p.costUnknown],
    );
    const viewLine = formatLiveLine(liveLineOf(header.totals, header.iterations, header.pricing.rootLocal && header.pricing.subLocal, ''));
    assert.equal(viewLine, formatLiveLine(p), 'the view prints the very line the status bar prints');
  });
  await active.result;
  feed.dispose();
  assert.ok(ticks >= 2, 'ticks during the run and one at its end');
  assert.equal(active.progress.turn, 2);
});

test('an unknown price stays unknown once seen: known costs add up beside it, in either order, and the live line never says $0', () => {
  const unknown: RunEvent = { type: 'model.output', runId: 'r', turn: 1, text: 'x', usage: usage(1, 1, null), latencyMs: 1, finishReason: 'stop', requestBytes: 1 };
  const known: RunEvent = { type: 'model.output', runId: 'r', turn: 1, text: 'x', usage: usage(2, 3, 0.25), latencyMs: 1, finishReason: 'stop', requestBytes: 1 };
  const progress = (...events: RunEvent[]) => {
    const tree = new TreeBuilder();
    [runStarted('r'), { type: 'turn.started', runId: 'r', turn: 1 } as RunEvent, ...events].forEach((e, i) => tree.apply(rec(e, i + 1)));
    return progressOf(tree.tree, 'x');
  };
  const onlyUnknown = progress(unknown);
  assert.deepEqual([onlyUnknown.costUsd, onlyUnknown.costUnknown], [null, true], 'nothing known yet: no dollar figure at all');
  assert.equal(formatLiveLine(onlyUnknown), 'turn 1 · 0 sub-calls · 2 tokens · price unknown');
  const after = progress(unknown, known);
  assert.deepEqual([after.costUsd, after.costUnknown], [0.25, true], 'a known cost after an unknown one');
  const before = progress(known, unknown);
  assert.deepEqual([before.costUsd, before.costUnknown], [0.25, true], 'an unknown cost after a known one');
  assert.equal(formatLiveLine(before), 'turn 1 · 0 sub-calls · 7 tokens · ≥ $0.25');
  const free = progress({ ...known, usage: usage(1, 1, 0) } as RunEvent);
  assert.deepEqual([free.costUsd, free.costUnknown], [0, false], 'a known zero is a real $0');
});

test("the root's run.finished ends the progress; a child's does not", () => {
  const tree = new TreeBuilder();
  const events: RunEvent[] = [
    runStarted('root'),
    { type: 'turn.started', runId: 'root', turn: 1 },
    { type: 'cell.started', runId: 'root', turn: 1, cellId: 'c1', code: 'rlm_query("q")' },
    { type: 'subcall.started', runId: 'root', cellId: 'c1', callId: 's1', kind: 'rlm_query', depth: 1, model: { provider: 'openai', model: 'sub' }, prompt: 'p' },
    { ...(runStarted('child') as Extract<RunEvent, { type: 'run.started' }>), depth: 1, parentRunId: 'root', parentCellId: 'c1', parentCallId: 's1' },
    { type: 'model.output', runId: 'child', turn: 1, text: 'x', usage: usage(5, 5, null), latencyMs: 1, finishReason: 'stop', requestBytes: 1 },
    finished('child', 'inner'),
  ];
  events.forEach((e, i) => tree.apply(rec(e, i + 1)));
  let p = progressOf(tree.tree, 'x');
  assert.equal(p.finished, false, "a child's end is not the run's end");
  assert.deepEqual([p.inputTokens, p.costUsd, p.costUnknown], [5, null, true], "the child's figures count towards the root's");
  tree.apply(rec(finished('root', 'done'), events.length + 1));
  p = progressOf(tree.tree, 'x');
  assert.equal(p.finished, true);
});
