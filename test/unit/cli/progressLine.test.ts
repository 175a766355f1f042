// The CLI's live line: turn, sub-calls, tokens and cost, and what caching saved once it saved something.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ProgressLine } from '../../../src/cli/support/progressLine';
import type { EventRecord } from '../../../src/core/trajectory/events';

const at = { seq: 1, ts: 0 };

test('the progress line adds cached tokens, cached sub-calls and savings only when there are some', () => {
  const line = new ProgressLine({ write: () => undefined }, 0, () => 2500);
  line.update({ type: 'run.started', runId: 'r', depth: 0, ...at } as unknown as EventRecord);
  line.update({ type: 'model.output', runId: 'r', turn: 1, text: '', usage: { inputTokens: 1000, outputTokens: 100, costUsd: 0.01 }, latencyMs: 1, finishReason: 'stop', ...at } as unknown as EventRecord);
  assert.equal(line.text(), 'rlm: turn 0 · 0 sub-calls · 1.1k tokens · $0.01 · 2.5s');
  line.update({ type: 'model.output', runId: 'r', turn: 2, text: '', usage: { inputTokens: 3000, outputTokens: 100, costUsd: 0.002, cacheReadTokens: 2500, savedUsd: 0.0068 }, latencyMs: 1, finishReason: 'stop', ...at } as unknown as EventRecord);
  line.update({ type: 'subcall.started', runId: 'r', callId: 'c', ...at } as unknown as EventRecord);
  line.update({ type: 'subcall.finished', runId: 'r', callId: 'c', response: 'x', usage: { inputTokens: 0, outputTokens: 0, costUsd: 0, fromCache: true, savedUsd: 0.001 }, latencyMs: 0, cached: true, ...at } as unknown as EventRecord);
  assert.match(line.text(), /· \$0\.01 \(2\.5k cached tokens, 1 cached sub-call, saved \$0\.0078\) · 2\.5s$/);
});
