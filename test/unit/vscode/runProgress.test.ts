import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatLiveLine } from '../../../src/shared/format';
import { initialProgress, reduceProgress } from '../../../src/vscode/run/runProgress';
import type { EventRecord, RunEvent } from '../../../src/core/trajectory/events';
import { finished, runStarted, usage } from './runFakes';

const rec = (e: RunEvent, seq = 1): EventRecord => ({ ...e, seq, ts: seq }) as EventRecord;

test('turns, deltas and usage of the root and its child runs add up', () => {
  let p = initialProgress();
  p = reduceProgress(p, rec(runStarted('root')));
  p = reduceProgress(p, rec({ type: 'turn.started', runId: 'root', turn: 2 }));
  p = reduceProgress(p, rec({ type: 'model.delta', runId: 'root', turn: 2, text: 'abc' }));
  p = reduceProgress(p, rec({ type: 'model.delta', runId: 'root', turn: 2, text: 'def' }));
  assert.equal(p.streamingText, 'abcdef');
  p = reduceProgress(p, rec(runStarted('child')));
  p = reduceProgress(p, rec({ type: 'turn.started', runId: 'child', turn: 7 }));
  assert.equal(p.turn, 2, "a child's turns are not the root's");
  p = reduceProgress(p, rec({ type: 'model.output', runId: 'child', turn: 1, text: 'x', usage: usage(10, 1, 0.5), latencyMs: 1, finishReason: 'stop', requestBytes: 1 }));
  p = reduceProgress(p, rec({ type: 'subcall.finished', runId: 'root', callId: 'c', usage: usage(5, 5, 0.25), latencyMs: 1 }));
  assert.equal(p.inputTokens, 15);
  assert.equal(p.costUsd, 0.75);
  assert.equal(p.subCalls, 1);
  assert.equal(formatLiveLine(p), 'turn 2 · 1 sub-call · 21 tokens · $0.75');
});

test('an unknown price stays unknown once seen: known costs add up beside it, in either order, and the live line never says $0', () => {
  const unknown = rec({ type: 'subcall.finished', runId: 'r', callId: 'c1', usage: usage(1, 1, null), latencyMs: 1 });
  const known = rec({ type: 'model.output', runId: 'r', turn: 1, text: 'x', usage: usage(2, 3, 0.25), latencyMs: 1, finishReason: 'stop', requestBytes: 1 });
  let p = reduceProgress(initialProgress(), unknown);
  assert.deepEqual([p.costUsd, p.costUnknown], [null, true], 'nothing known yet: no dollar figure at all');
  assert.equal(formatLiveLine(p), 'turn 0 · 1 sub-call · 2 tokens · cost unknown');
  p = reduceProgress(p, known);
  assert.deepEqual([p.costUsd, p.costUnknown], [0.25, true], 'a known cost after an unknown one');
  const reversed = reduceProgress(reduceProgress(initialProgress(), known), unknown);
  assert.deepEqual([reversed.costUsd, reversed.costUnknown], [0.25, true], 'an unknown cost after a known one');
  assert.equal(formatLiveLine(reversed), 'turn 0 · 1 sub-call · 7 tokens · ≥ $0.25');
  const free = reduceProgress(initialProgress(), rec({ type: 'subcall.finished', runId: 'r', callId: 'c2', usage: usage(1, 1, 0), latencyMs: 1 }));
  assert.deepEqual([free.costUsd, free.costUnknown], [0, false], 'a known zero is a real $0');
});

test("the root's run.finished ends the progress with the loop's totals; a child's does not", () => {
  let p = reduceProgress(initialProgress(), rec(runStarted('root')));
  p = reduceProgress(p, rec({ type: 'subcall.finished', runId: 'root', callId: 'c', usage: usage(5, 5, null), latencyMs: 1 }));
  p = reduceProgress(p, rec(runStarted('child')));
  p = reduceProgress(p, rec(finished('child', 'inner', { inputTokens: 1, outputTokens: 1, costUsd: 9, subCalls: 9 })));
  assert.equal(p.finished, false, "a child's end is not the run's end");
  assert.deepEqual([p.inputTokens, p.costUsd, p.costUnknown, p.subCalls], [5, null, true, 1], "a child's totals are not the run's");
  p = reduceProgress(p, rec(finished('root', 'done', { inputTokens: 40, outputTokens: 2, costUsd: 0.5, costUnknown: false, subCalls: 3 })));
  assert.equal(p.finished, true);
  assert.equal(p.activity, 'completed');
  assert.deepEqual([p.inputTokens, p.outputTokens, p.costUsd, p.costUnknown, p.subCalls], [40, 2, 0.5, false, 3], "the loop's totals are authoritative");
});
