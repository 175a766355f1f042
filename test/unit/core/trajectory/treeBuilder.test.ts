import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EventRecord, RunEvent } from '../../../../src/core/trajectory/events';
import { TreeBuilder } from '../../../../src/core/trajectory/treeBuilder';
import { cellNodeId, runNodeId, subCallNodeId, turnNodeId } from '../../../../src/core/trajectory/treeNodes';
import { syntheticConfig, syntheticEvents } from '../../../fixtures/trajectories/generate';
import { allLayersOn } from '../../../fakes/fakeProtections';

let seq = 0;
const rec = (event: RunEvent, ts = seq * 10): EventRecord => ({ ...event, seq: ++seq, ts } as EventRecord);
const usage = (i: number, o: number, c: number | null) => ({ inputTokens: i, outputTokens: o, costUsd: c });
const started = (runId: string, extra: Partial<Extract<RunEvent, { type: 'run.started' }>> = {}): RunEvent => ({
  type: 'run.started', runId, depth: 0, question: 'q', config: syntheticConfig,
  context: { type: 'str', totalChars: 1, totalBytes: 1, fileCount: 1, prefix: '', files: [], filesOmitted: 0, invalidUtf8Replacements: 0 },
  protections: allLayersOn(),
  ...extra,
});

test('totals roll up from sub-calls and child runs to every ancestor, and apply reports what changed', () => {
  const b = new TreeBuilder();
  b.apply(rec(started('R')));
  b.apply(rec({ type: 'turn.started', runId: 'R', turn: 1 }));
  assert.deepEqual(b.apply(rec({ type: 'model.output', runId: 'R', turn: 1, text: 't', usage: usage(100, 10, 0.5), latencyMs: 1, finishReason: 'stop', requestBytes: 9 })).changed, [turnNodeId('R', 1), runNodeId('R')]);
  b.apply(rec({ type: 'cell.started', runId: 'R', turn: 1, cellId: 'c1', code: 'x' }));
  b.apply(rec({ type: 'subcall.started', runId: 'R', callId: 's1', cellId: 'c1', kind: 'rlm_query', depth: 1, model: syntheticConfig.sub, prompt: 'p' }));
  // The child's run.started arrives before child.started: both orders must link.
  b.apply(rec(started('K', { parentRunId: 'R', parentCellId: 'c1', parentCallId: 's1', depth: 1 })));
  b.apply(rec({ type: 'child.started', runId: 'R', callId: 's1', childRunId: 'K' }));
  b.apply(rec({ type: 'turn.started', runId: 'K', turn: 1 }));
  const changed = b.apply(rec({ type: 'model.output', runId: 'K', turn: 1, text: 'k', usage: usage(7, 3, null), latencyMs: 1, finishReason: 'stop', requestBytes: 1 })).changed;
  assert.deepEqual(changed, [turnNodeId('K', 1), runNodeId('K'), subCallNodeId('R', 's1'), cellNodeId('R', 'c1'), turnNodeId('R', 1), runNodeId('R')]);
  b.apply(rec({ type: 'subcall.finished', runId: 'R', callId: 's1', response: 'r', usage: usage(0, 0, 0), latencyMs: 5 }));
  b.apply(rec({ type: 'cell.finished', runId: 'R', cellId: 'c1', stdout: 'o', stderr: '', stdoutChars: 1, stderrChars: 0, newVariables: [], durationMs: 3, outIndex: 0, error: { type: 'E', message: 'm', traceback: '' } }));
  const root = b.tree!;
  const call = root.turns[0]!.cells[0]!.subCalls[0]!;
  assert.equal(call.child?.runId, 'K');
  assert.deepEqual(call.totals, { inputTokens: 7, outputTokens: 3, costUsd: 0, costUnknown: true, subCalls: 1, errors: 0, wallTimeMs: call.totals.wallTimeMs });
  assert.equal(root.totals.inputTokens, 107);
  assert.equal(root.totals.outputTokens, 13);
  assert.equal(root.totals.costUsd, 0.5);
  assert.equal(root.totals.costUnknown, true);
  assert.equal(root.totals.errors, 1);
  assert.equal(root.turns[0]!.cells[0]!.totals.errors, 1);
  assert.equal(root.totals.wallTimeMs, b.tree!.turns[0]!.cells[0]!.finishedAt! - root.startedAt);
  assert.equal(b.getNode(subCallNodeId('R', 's1'))?.kind, 'subcall');
});

test('cache figures roll up like tokens, a cached sub-call is marked, and a batch estimate lands on its cell', () => {
  const b = new TreeBuilder();
  b.apply(rec(started('R')));
  b.apply(rec({ type: 'turn.started', runId: 'R', turn: 1 }));
  b.apply(rec({ type: 'model.output', runId: 'R', turn: 1, text: 't', usage: { ...usage(1000, 10, 0.01), cacheReadTokens: 800, cacheWriteTokens: 100, savedUsd: 0.002 }, latencyMs: 1, finishReason: 'stop', requestBytes: 9 }));
  b.apply(rec({ type: 'cell.started', runId: 'R', turn: 1, cellId: 'c1', code: 'x' }));
  b.apply(rec({ type: 'batch.estimated', runId: 'R', cellId: 'c1', batchId: 'B', prompts: 60, chars: 2_000_000, estimatedCostUsd: 0.5 }));
  b.apply(rec({ type: 'subcall.started', runId: 'R', callId: 's1', cellId: 'c1', kind: 'llm_query', depth: 1, model: syntheticConfig.sub, prompt: 'p' }));
  b.apply(rec({ type: 'subcall.finished', runId: 'R', callId: 's1', response: 'r', usage: { ...usage(0, 0, 0), fromCache: true, savedUsd: 0.003 }, latencyMs: 1, cached: true }));
  b.apply(rec({ type: 'subcall.started', runId: 'R', callId: 's2', cellId: 'c1', kind: 'llm_query', depth: 1, model: syntheticConfig.sub, prompt: 'q' }));
  b.apply(rec({ type: 'subcall.finished', runId: 'R', callId: 's2', response: 'r', usage: usage(50, 5, 0.001), latencyMs: 1 }));
  const root = b.tree!;
  const cell = root.turns[0]!.cells[0]!;
  assert.equal(cell.subCalls[0]!.cached, true);
  assert.equal(cell.subCalls[1]!.cached, undefined);
  assert.deepEqual(cell.batchEstimates, [{ batchId: 'B', prompts: 60, chars: 2_000_000, estimatedCostUsd: 0.5 }]);
  assert.equal(cell.totals.cachedSubCalls, 1);
  assert.equal(cell.totals.savedUsd, 0.003);
  assert.equal(cell.totals.cacheReadTokens, undefined, 'nothing read from a prompt cache under this cell');
  assert.equal(root.totals.cacheReadTokens, 800);
  assert.equal(root.totals.cacheWriteTokens, 100);
  assert.equal(root.totals.cachedSubCalls, 1);
  assert.ok(Math.abs(root.totals.savedUsd! - 0.005) < 1e-12);
  assert.equal(root.totals.subCalls, 2);
  assert.equal('savedUsd' in cell.subCalls[1]!.totals, false, 'an uncached call carries no cache figures');
});

test('streamed text shows live and is replaced by the final event', () => {
  const b = new TreeBuilder();
  b.apply(rec(started('R')));
  b.apply(rec({ type: 'model.delta', runId: 'R', turn: 1, text: 'ignored: no turn yet' }));
  b.apply(rec({ type: 'turn.started', runId: 'R', turn: 1 }));
  b.apply(rec({ type: 'model.delta', runId: 'R', turn: 1, text: 'Hel' }));
  b.apply(rec({ type: 'model.delta', runId: 'R', turn: 1, text: 'lo' }));
  assert.equal(b.tree!.turns[0]!.modelText, 'Hello');
  b.apply(rec({ type: 'model.output', runId: 'R', turn: 1, text: 'Hello!', usage: usage(1, 1, 0), latencyMs: 1, finishReason: 'stop', requestBytes: 1 }));
  b.apply(rec({ type: 'model.delta', runId: 'R', turn: 1, text: 'late' }));
  assert.equal(b.tree!.turns[0]!.modelText, 'Hello!');
  b.apply(rec({ type: 'cell.started', runId: 'R', turn: 1, cellId: 'c', code: '' }));
  b.apply(rec({ type: 'cell.output', runId: 'R', cellId: 'c', stream: 'stdout', text: 'par' }));
  assert.equal(b.tree!.turns[0]!.cells[0]!.stdout, 'par');
  b.apply(rec({ type: 'cell.finished', runId: 'R', cellId: 'c', stdout: 'partial', stderr: '', stdoutChars: 7, stderrChars: 0, newVariables: [], durationMs: 1, outIndex: 0 }));
  assert.equal(b.tree!.turns[0]!.cells[0]!.stdout, 'partial');
});

test('events for unknown runs, cells or calls are reported as orphans, not thrown', () => {
  const b = new TreeBuilder();
  assert.equal(b.apply(rec({ type: 'turn.started', runId: 'nobody', turn: 1 })).problem?.kind, 'orphan-event');
  b.apply(rec(started('R')));
  assert.equal(b.apply(rec({ type: 'subcall.finished', runId: 'R', callId: 'x', usage: usage(1, 1, 0), latencyMs: 1 })).problem?.kind, 'orphan-event');
  assert.equal(b.apply(rec(started('R'))).problem?.kind, 'orphan-event');
  assert.equal(b.apply({ type: 'brand.new', runId: 'R', seq: 999, ts: 1 } as unknown as EventRecord).problem?.kind, 'unknown-event');
  assert.equal(b.roots.length, 1);
});

test('applying an event touches only its node and ancestors, however large the run (no full recomputation)', () => {
  const b = new TreeBuilder();
  let mostChanged = 0;
  let events = 0;
  for (const e of syntheticEvents({ cells: 5000, subCallsPerCell: 4, childEvery: 50, outputChars: 20, modelTextChars: 20, promptChars: 10, responseChars: 10 })) {
    mostChanged = Math.max(mostChanged, b.apply(e).changed.length);
    events++;
  }
  assert.ok(events > 60_000);
  assert.equal(b.tree!.totals.subCalls, 20_000 + 400 * 2);
  // call -> cell -> turn -> run -> (child: call -> cell -> turn -> run): bounded by depth, not size.
  assert.ok(mostChanged <= 8, `an event changed ${mostChanged} nodes`);
});

test('limit warnings, fallbacks and answers are recorded on their run, or reported as orphans', () => {
  const b = new TreeBuilder();
  b.apply(rec(started('R')));
  assert.deepEqual(b.apply(rec({ type: 'limit.warning', runId: 'R', limit: 'iterations', value: 8, max: 10 })).changed, [runNodeId('R')]);
  b.apply(rec({ type: 'fallback', runId: 'R', kind: 'depth-limit', detail: 'd' }));
  b.apply(rec({ type: 'answer', runId: 'R', text: 'A', forced: true, via: 'forced' }));
  const root = b.tree!;
  assert.deepEqual(root.limitWarnings, [{ limit: 'iterations', value: 8, max: 10 }]);
  assert.deepEqual(root.fallbacks, [{ kind: 'depth-limit', detail: 'd' }]);
  assert.equal(root.answer, 'A');
  assert.equal(root.forced, true);
  const orphan = b.apply(rec({ type: 'fallback', runId: 'nobody', kind: 'x', detail: '' }));
  assert.deepEqual([orphan.changed, orphan.problem?.kind], [[], 'orphan-event']);
  assert.match(orphan.problem?.message ?? '', /^fallback refers to .* \(run nobody\)$/);
});

test('a cancelled sub-call (by Stop, or a batch item the provider cancelled) is not counted as an error; a failed one is', () => {
  const b = new TreeBuilder();
  b.apply(rec(started('C')));
  b.apply(rec({ type: 'turn.started', runId: 'C', turn: 1 }));
  b.apply(rec({ type: 'cell.started', runId: 'C', turn: 1, cellId: 'c1', code: 'x' }));
  const kinds = ['cancelled', 'batch_canceled', 'server'] as const;
  kinds.forEach((kind, i) => {
    b.apply(rec({ type: 'subcall.started', runId: 'C', callId: `s${i}`, cellId: 'c1', kind: 'llm_query', depth: 1, model: syntheticConfig.sub, prompt: 'p' }));
    b.apply(rec({ type: 'subcall.finished', runId: 'C', callId: `s${i}`, error: { kind, message: kind }, usage: usage(0, 0, 0), latencyMs: 1 }));
  });
  const cell = b.tree!.turns[0]!.cells[0]!;
  assert.deepEqual(cell.subCalls.map((c) => c.totals.errors), [0, 0, 1]);
  assert.equal(b.tree!.totals.errors, 1);
});
