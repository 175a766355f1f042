import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatCost, formatLiveLine } from '../../../src/shared/format';
import { initialProgress, reduceProgress } from '../../../src/vscode/run/runProgress';
import type { EventRecord, RunEvent } from '../../../src/core/trajectory/events';
import { runStarted, usage } from './runFakes';

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

test('an unknown price is never shown as $0', () => {
  let p = initialProgress();
  p = reduceProgress(p, rec({ type: 'subcall.finished', runId: 'r', callId: 'c', usage: usage(1, 1, null), latencyMs: 1 }));
  assert.equal(p.costUnknown, true);
  assert.equal(formatCost(p.costUsd, p.costUnknown), 'cost unknown');
  assert.equal(formatCost(0.5, true), '≥ $0.50');
  assert.equal(formatCost(0.0012, false), '$0.0012');
});
