// The host-side projection of run trees into protocol views, the search, and the live feed.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventRecord, RunEvent } from '../../../../src/core/trajectory/events';
import type { CellNode, SubCallNode, TurnNode } from '../../../../src/core/trajectory/treeTypes';
import { LiveFeed, type StreamPush } from '../../../../src/vscode/trajectory/liveFeed';
import type { LiveRun } from '../../../../src/vscode/run/liveRunTypes';
import { headerView } from '../../../../src/vscode/trajectory/runHeaderProjection';
import { reasoningText } from '../../../../src/core/trajectory/exportText';
import { groupSubCalls, outlineOf, preview, rootSawNote, turnView } from '../../../../src/vscode/trajectory/runProjection';
import { searchRun } from '../../../../src/vscode/trajectory/runSearch';
import type { RunChange } from '../../../../src/vscode/trajectory/trajectorySession';
import { syntheticConfig, syntheticEvents } from '../../../fixtures/trajectories/generate';
import { buildRun, hostileEvents, recorder, syntheticRun } from './runFixtures';
import { allLayersOn } from '../../../fakes/fakeProtections';

const totals = () => ({ inputTokens: 0, outputTokens: 0, costUsd: 0, costUnknown: false, subCalls: 0, errors: 0, wallTimeMs: 0 });

function call(id: string, extra: Partial<SubCallNode> = {}): SubCallNode {
  return { callId: id, kind: 'llm_query', depth: 1, model: syntheticConfig.sub, prompt: `prompt ${id}`, startedAt: 100, totals: totals(), ...extra };
}

describe('run projection', () => {
  it("names the input's original format in the header: a .gz, a rotated set, a notebook, a PDF (counted in pages)", () => {
    const r = recorder();
    const header = (format: object | undefined, type: 'str' | 'dict', fileCount: number): string | undefined => {
      const context = { type, totalChars: 10, totalBytes: 10, fileCount, prefix: '', files: [], filesOmitted: 0, invalidUtf8Replacements: 0, ...(format ? { format } : {}) };
      const run = buildRun([r.at({ type: 'run.started', runId: 'F', depth: 0, question: 'q', config: syntheticConfig, context, protections: allLayersOn() })]);
      const view = headerView(run, { source: 'x', format: 'rlm', problems: { count: 0, first: [] } });
      // The words shown beside the target are the same as in the context's summary.
      assert.equal(view.inputFormat, view.contextSummary?.match(/ \((.*)\)$/)?.[1]);
      return view.contextSummary;
    };
    assert.equal(header({ compression: 'gzip' }, 'str', 1), 'str, 10 characters, 1 file (read decompressed from gzip)');
    assert.equal(header({ compressedFiles: 1, logSets: [{ log: 'logs/app.log', parts: 3 }] }, 'dict', 3), 'dict, 10 characters, 3 files (1 file read decompressed; rotated logs read oldest first: logs/app.log (3 parts))');
    assert.equal(header({ notebook: { cells: 3, code: 2, markdown: 1, raw: 0, language: 'python', binaryOutputs: 0, truncatedOutputs: 0 } }, 'str', 1), 'str, 10 characters, 1 file (a Jupyter notebook (python), 3 cells: 2 code, 1 markdown)');
    assert.equal(header({ pdf: { pages: 4, textlessPages: '3', textlessCount: 1 } }, 'dict', 4), 'dict, 10 characters, 4 pages (a PDF of 4 pages, read page by page; pages without text: 3)');
    assert.equal(header(undefined, 'str', 1), 'str, 10 characters, 1 file');
  });

  it('groups batch items under one entry with count, errors and rolled-up cost, in batch order', () => {
    const entries = groupSubCalls([
      call('a'),
      call('b2', { batchId: 'B', batchIndex: 1, batchSize: 3, response: 'r', finishedAt: 300, totals: { ...totals(), costUsd: 0.5, inputTokens: 10 } }),
      call('b1', { batchId: 'B', batchIndex: 0, batchSize: 3, error: { kind: 'timeout', message: 'late' }, finishedAt: 250, totals: { ...totals(), costUsd: 0.25, errors: 1 } }),
      call('b3', { batchId: 'B', batchIndex: 2, batchSize: 3, response: 'r', startedAt: 90, finishedAt: 200, totals: { ...totals(), costUnknown: true } }),
      call('z'),
    ]);
    assert.deepEqual(entries.map((e) => e.kind), ['call', 'batch', 'call']);
    const batch = entries[1];
    assert.ok(batch?.kind === 'batch');
    assert.equal(batch.size, 3);
    assert.equal(batch.errors, 1);
    assert.deepEqual(batch.calls.map((c) => c.callId), ['b1', 'b2', 'b3']);
    assert.equal(batch.totals.costUsd, 0.75);
    assert.equal(batch.totals.costUnknown, true);
    assert.equal(batch.totals.wallTimeMs, 300 - 90);
    assert.equal(batch.calls[0]!.status, 'error');
    assert.equal(entries[0]!.kind === 'call' && entries[0]!.call.status, 'running');
  });

  it('counts cancelled items of a batch apart from its errors (after Stop, a batch reads "N cancelled", not "N errors")', () => {
    const entries = groupSubCalls([
      call('b1', { batchId: 'B', batchIndex: 0, batchSize: 4, response: 'r', finishedAt: 200 }),
      call('b2', { batchId: 'B', batchIndex: 1, batchSize: 4, error: { kind: 'batch_canceled', message: 'cancelled before it ran' }, finishedAt: 210 }),
      call('b3', { batchId: 'B', batchIndex: 2, batchSize: 4, error: { kind: 'cancelled', message: 'stopped by you' }, finishedAt: 210 }),
      call('b4', { batchId: 'B', batchIndex: 3, batchSize: 4, error: { kind: 'server', message: '500' }, finishedAt: 210 }),
    ]);
    const batch = entries[0];
    assert.ok(batch?.kind === 'batch');
    assert.deepEqual([batch.errors, batch.cancelled], [1, 2]);
  });

  it('rolls cache figures up into a batch, marks cached calls, and keeps batch estimates on the cell, not among fallbacks', () => {
    const entries = groupSubCalls([
      call('b1', { batchId: 'B', batchIndex: 0, batchSize: 2, response: 'r', finishedAt: 200, cached: true, totals: { ...totals(), cachedSubCalls: 1, savedUsd: 0.01 } }),
      call('b2', { batchId: 'B', batchIndex: 1, batchSize: 2, response: 'r', finishedAt: 210, totals: { ...totals(), cacheReadTokens: 500, savedUsd: 0.002 } }),
    ]);
    const batch = entries[0];
    assert.ok(batch?.kind === 'batch');
    assert.equal(batch.totals.cachedSubCalls, 1);
    assert.equal(batch.totals.cacheReadTokens, 500);
    assert.equal(batch.totals.savedUsd, 0.012);
    assert.deepEqual(batch.calls.map((c) => c.cached), [true, undefined]);
    const r = recorder();
    const run = buildRun([
      r.at({ type: 'run.started', runId: 'R', depth: 0, question: 'q', config: syntheticConfig, context: { type: 'str', totalChars: 1, totalBytes: 1, fileCount: 1, prefix: '', files: [], filesOmitted: 0, invalidUtf8Replacements: 0 }, protections: allLayersOn() }),
      r.at({ type: 'turn.started', runId: 'R', turn: 1 }),
      r.at({ type: 'cell.started', runId: 'R', turn: 1, cellId: 'c', code: 'llm_query_batched(ps)' }),
      r.at({ type: 'batch.estimated', runId: 'R', cellId: 'c', batchId: 'B', prompts: 80, chars: 10, estimatedCostUsd: 1, refused: true }),
    ]);
    const view = turnView(run, 0)!;
    assert.deepEqual(view.cells[0]!.batchEstimates, [{ batchId: 'B', prompts: 80, chars: 10, estimatedCostUsd: 1, refused: true }]);
    assert.deepEqual(headerView(run, { source: 'x', format: 'rlm', problems: { count: 0, first: [] } }).fallbacks, []);
    const turn = buildRun([
      r.at({ type: 'run.started', runId: 'T', depth: 0, question: 'q', config: syntheticConfig, context: { type: 'str', totalChars: 1, totalBytes: 1, fileCount: 1, prefix: '', files: [], filesOmitted: 0, invalidUtf8Replacements: 0 }, protections: allLayersOn() }),
      r.at({ type: 'turn.started', runId: 'T', turn: 1 }),
      r.at({ type: 'model.output', runId: 'T', turn: 1, text: 'x', usage: { inputTokens: 2000, outputTokens: 5, costUsd: 0.001, cacheReadTokens: 1800, savedUsd: 0.004 }, latencyMs: 1, finishReason: 'stop', requestBytes: 1 }),
    ]);
    const root = turnView(turn, 0)!;
    assert.deepEqual([root.cacheReadTokens, root.savedUsd], [1800, 0.004], 'the root model\'s own cache reads reach its turn');
    const replayed = buildRun([
      r.at({ type: 'run.started', runId: 'P', depth: 0, question: 'q', config: syntheticConfig, context: { type: 'str', totalChars: 1, totalBytes: 1, fileCount: 1, prefix: '', files: [], filesOmitted: 0, invalidUtf8Replacements: 0 }, protections: allLayersOn() }),
      r.at({ type: 'turn.started', runId: 'P', turn: 1 }),
      r.at({ type: 'model.output', runId: 'P', turn: 1, text: 'x', usage: { inputTokens: 0, outputTokens: 0, costUsd: 0 }, latencyMs: 0, finishReason: 'replayed', requestBytes: 0, replayed: true }),
    ]);
    assert.equal(turnView(replayed, 0)!.replayed, true, 'a replayed turn says so in the view');
    assert.equal(root.replayed, undefined);
  });

  it('takes executed code blocks out of the reasoning and keeps other blocks', () => {
    const turn: TurnNode = {
      turn: 1, startedAt: 0, notices: [], totals: totals(),
      modelText: 'Look first.\n```repl\nprint(1)\n```\nAn example:\n```python\nnot_run()\n```',
      cells: [{ cellId: 'c', turn: 1, code: 'print(1)', startedAt: 0, subCalls: [], totals: totals() }],
    };
    assert.equal(reasoningText(turn), 'Look first.\n\nAn example:\n```python\nnot_run()\n```');
  });

  it('says what the root saw when output was longer than the observation limit or the capture limit', () => {
    const cell = { cellId: 'c', turn: 1, code: '', startedAt: 0, subCalls: [], totals: totals(), stdout: 'x'.repeat(5000), stdoutChars: 9000, stderr: '', stderrChars: 0, outIndex: 4 } as CellNode;
    assert.equal(
      rootSawNote(cell, 4000),
      'The root model saw 4,000 of 9,000 characters (head and tail). 4,000 characters were beyond the capture limit and not recorded. The full output was in _out[4].',
    );
    assert.equal(
      rootSawNote({ ...cell, stdoutCutAt: 2500 }, 4000),
      'The root model saw 4,000 of 9,000 characters (head and tail). 4,000 characters in the middle were beyond the capture limit and not recorded (the head and tail were). The full output was in _out[4].',
    );
    assert.equal(rootSawNote({ ...cell, stdout: 'short', stdoutChars: 5 }, 4000), undefined);
  });

  it('previews long text and reports its full length', () => {
    assert.deepEqual(preview('abcdef', 4), { text: 'abcd', totalChars: 6 });
    assert.deepEqual(preview('ab', 4), { text: 'ab', totalChars: 2 });
  });

  it('builds the header with protections, models, depth and limits', () => {
    const run = syntheticRun({ cells: 4, subCallsPerCell: 2, childEvery: 3 });
    const header = headerView(run, { source: 's', format: 'rlm', problems: { count: 1, first: ['line 3: bad'] } });
    assert.equal(header.rootModel, 'synthetic-root');
    assert.deepEqual(header.models, ['synthetic-sub']);
    assert.equal(header.maxDepth, 2);
    assert.deepEqual(header.protections.map((p) => p.label.slice(0, 7)), ['Layer 1', 'Layer 2', 'Layer 3', 'Layer 4']);
    assert.ok(header.protections.every((p) => p.on && p.probes.length > 0));
    assert.equal(header.observationMaxChars, syntheticConfig.observationMaxChars);
    assert.equal(header.problems.count, 1);
  });

  it('passes hostile text through as data (the webview renders it as text)', () => {
    const run = buildRun(hostileEvents());
    const view = turnView(run, 0)!;
    assert.match(view.cells[0]!.stdout!.text, /<script>/);
    assert.match(view.reasoning!.text, /<img src=x onerror=/);
  });
});

describe('searchRun', () => {
  const run = syntheticRun({ cells: 22, subCallsPerCell: 2, childEvery: 4, childTurns: 2 });

  it('finds text in code, outputs and sub-calls, mapping child-run hits to their root turn', () => {
    const child = run.turns[1]!.cells[0]!.subCalls[1]!.child!;
    const childCode = child.turns[0]!.cells[0]!.code;
    const result = searchRun(run, childCode.split('\n')[0]!, { errorsOnly: false });
    assert.ok(result.hits.some((h) => h.runId === child.runId && h.rootTurnIndex === 1 && h.where === 'code'));
  });

  it('filters: errors only, by model, by depth, and lists matches for an empty query', () => {
    const errors = searchRun(run, '', { errorsOnly: true });
    assert.equal(errors.total, 2, 'turns 11 and 22 have a KeyError');
    assert.deepEqual(errors.hits.map((h) => h.rootTurnIndex), [10, 21]);
    const depth2 = searchRun(run, '', { errorsOnly: false, depth: 2 });
    assert.ok(depth2.total > 0 && depth2.hits.every((h) => h.where === 'prompt' || h.where === 'response'));
    assert.ok(depth2.hits.every((h) => h.runId !== run.runId), 'depth-2 calls live in child runs');
    assert.equal(searchRun(run, '', { errorsOnly: false, model: 'no-such-model' }).total, 0);
    assert.equal(searchRun(run, '', { errorsOnly: false }).total, 0, 'no query and no filter: nothing');
  });

  it('caps the hits it returns and says so', () => {
    const result = searchRun(run, 'the', { errorsOnly: false }, 5);
    assert.equal(result.hits.length, 5);
    assert.ok(result.total > 5);
    assert.equal(result.truncated, true);
  });
});

describe('LiveFeed', () => {
  function fakeRun(records: EventRecord[]) {
    const listeners = new Set<(r: EventRecord) => void>();
    let stops = 0;
    const run: LiveRun = {
      runId: 'run-1',
      records: () => records,
      subscribe: (l) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
      stop: () => void stops++,
    };
    return { run, emit: (r: EventRecord) => listeners.forEach((l) => l(r)), listeners, stops: () => stops };
  }

  it('replays what happened before it opened, then batches later changes into one flush', () => {
    const all = [...syntheticEvents({ cells: 3, subCallsPerCell: 1, liveEvents: true })];
    const split = all.findIndex((r) => r.type === 'turn.started' && r.turn === 2);
    const fake = fakeRun(all.slice(0, split));
    const flushes: Array<{ changes: RunChange[]; streams: StreamPush[] }> = [];
    const timers: Array<() => void> = [];
    const feed = new LiveFeed({ run: fake.run, onFlush: (changes, streams) => flushes.push({ changes, streams }), setTimer: (fn) => (timers.push(fn), () => undefined) });
    feed.start();
    assert.equal(feed.root().turns.length, 1, 'the records so far are applied');
    assert.equal(flushes.length, 0, 'replay does not push');
    for (const record of all.slice(split, all.findIndex((r) => r.type === 'model.output' && r.turn === 2))) fake.emit(record);
    assert.equal(timers.length, 1, 'one timer for many events');
    timers.shift()!();
    const first = flushes.shift()!;
    assert.deepEqual(first.changes.find((c) => c.runId === 'run-1')?.changedTurns, [1]);
    assert.equal(first.streams.length, 1);
    assert.equal(first.streams[0]!.turnIndex, 1);
    assert.ok(first.streams[0]!.text.length > 0, 'the streamed text so far');
    for (const record of all.slice(all.findIndex((r) => r.type === 'model.output' && r.turn === 2))) fake.emit(record);
    timers.shift()!();
    assert.equal(feed.root().status, 'completed');
    assert.equal(feed.isLive(), false);
    feed.dispose();
    assert.equal(fake.listeners.size, 0, 'dispose unsubscribes');
  });

  it('marks the turn of a cell whose output streams in (an event that reports only the cell)', () => {
    const all = [...syntheticEvents({ cells: 2, subCallsPerCell: 0, liveEvents: true })];
    const at = all.findIndex((r) => r.type === 'cell.output' && r.cellId === 'run-1-c2');
    const fake = fakeRun(all.slice(0, at));
    const flushes: RunChange[][] = [];
    const feed = new LiveFeed({ run: fake.run, onFlush: (changes) => flushes.push(changes), setTimer: () => () => undefined });
    feed.start();
    fake.emit(all[at]!);
    feed.flush();
    assert.deepEqual(flushes[0]?.find((c) => c.runId === 'run-1')?.changedTurns, [1]);
    assert.ok(feed.root().turns[1]!.cells[0]!.stdout!.length > 0, 'the streamed output is in the tree');
    feed.dispose();
  });

  it('shows a running placeholder before the run has started', () => {
    const fake = fakeRun([]);
    const feed = new LiveFeed({ run: fake.run, onFlush: () => undefined, setTimer: () => () => undefined });
    feed.start();
    assert.equal(feed.root().runId, 'run-1');
    assert.equal(feed.isLive(), true);
    const r = recorder();
    fake.emit(r.at({ type: 'run.started', runId: 'run-1', depth: 0, question: 'Q?', context: { type: 'str', totalChars: 1, totalBytes: 1, fileCount: 1, prefix: '', files: [], filesOmitted: 0, invalidUtf8Replacements: 0 }, config: syntheticConfig, protections: allLayersOn() }));
    assert.equal(feed.root().question, 'Q?');
    feed.dispose();
  });
});

describe('the user\'s cells in the projection', () => {
  it('marks the user\'s turn, cell and sub-calls, and shows the cell running after the run has ended', () => {
    const events = [...syntheticEvents({ cells: 1 })];
    const runId = events[0]!.runId;
    let seq = events.at(-1)!.seq;
    const at = (event: RunEvent): EventRecord => ({ ...event, seq: ++seq, ts: 9_000 + seq }) as EventRecord;
    const model = { provider: 'openai' as const, model: 'sub' };
    const records = [
      ...events,
      at({ type: 'cell.started', runId, turn: 2, cellId: 'u1', code: 'mine = 1\nprint(llm_query("x"))', author: 'user' }),
      at({ type: 'subcall.started', runId, callId: 'uc1', cellId: 'u1', kind: 'llm_query', depth: 1, model, prompt: 'x', author: 'user' }),
    ];
    const running = buildRun(records);
    const summary = outlineOf(running).at(-1)!;
    assert.equal(summary.author, 'user');
    assert.equal(summary.running, true, 'the user\'s cell runs after the run has finished');
    const view = turnView(running, running.turns.length - 1)!;
    assert.equal(view.author, 'user');
    assert.equal(view.cells[0]!.author, 'user');
    const entry = view.cells[0]!.subCalls[0]!;
    assert.equal(entry.kind === 'call' && entry.call.author, 'user');
    assert.equal(turnView(running, 0)!.author, undefined, 'the root\'s turns are not marked');
    assert.equal(headerView(running, { source: 'live', format: 'live', problems: { count: 0, first: [] } }).iterations, running.turns.length - 1, 'the user\'s cell is not an iteration');
  });
});
