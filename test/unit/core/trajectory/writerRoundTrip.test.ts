import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readTrajectory } from '../../../../src/core/trajectory/trajectoryReader';
import { TreeBuilder } from '../../../../src/core/trajectory/treeBuilder';
import { TrajectoryWriteError, openTrajectoryWriter } from '../../../../src/core/trajectory/trajectoryWriter';
import type { WriterFs } from '../../../../src/core/trajectory/trajectoryWriter';
import { generateTrajectory, syntheticEvents, syntheticHeader } from '../../../fixtures/trajectories/generate';
import { tempDir } from './tempDir';

const dir = tempDir('traj-writer');
const opts = { cells: 12, subCallsPerCell: 3, childEvery: 4, childTurns: 2, liveEvents: true };

test('a run recorded through the writer reads back into the tree built live from the same events', async () => {
  const path = join(dir, 'roundtrip.rlm.jsonl');
  const live = new TreeBuilder();
  const writer = openTrajectoryWriter(path, syntheticHeader(opts));
  for (const record of syntheticEvents(opts)) {
    live.apply(record);
    writer.write(record);
  }
  writer.close();
  const read = await readTrajectory(path);
  assert.deepEqual(read.problems, []);
  assert.equal(read.format, 'rlm-trajectory');
  assert.deepEqual(read.header, syntheticHeader(opts));
  assert.deepEqual(read.tree, live.tree);
  const tree = read.tree!;
  assert.equal(tree.status, 'completed');
  assert.equal(tree.turns.length, 12);
  // 36 sub-calls at the root, 9 of them rlm_query with a 2-turn child making one sub-call per turn.
  assert.equal(tree.totals.subCalls, 36 + 9 * 2);
  const childCall = tree.turns[1]!.cells[0]!.subCalls.find((c) => c.child);
  assert.ok(childCall?.child, 'child run nested under its sub-call');
  assert.equal(childCall.child.parentCallId, childCall.callId);
});

test('live-only events are not persisted', () => {
  const path = join(dir, 'live-only.rlm.jsonl');
  generateTrajectory(path, { ...opts, cells: 3 });
  const types = readFileSync(path, 'utf8').trim().split('\n').slice(1).map((l) => (JSON.parse(l) as { type: string }).type);
  assert.ok(types.length > 10);
  assert.ok(!types.includes('model.delta') && !types.includes('cell.output'));
});

test('a file cut at a random byte opens with every event before the cut', async () => {
  const path = join(dir, 'full.rlm.jsonl');
  generateTrajectory(path, { cells: 8, subCallsPerCell: 2, childEvery: 3 });
  const bytes = readFileSync(path);
  const lineEnds: number[] = [];
  bytes.forEach((b, i) => b === 0x0a && lineEnds.push(i));
  let seed = 7;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < 25; i++) {
    const cut = lineEnds[0]! + 1 + Math.floor(random() * (bytes.length - lineEnds[0]! - 1));
    const cutPath = join(dir, `cut-${i}.rlm.jsonl`);
    writeFileSync(cutPath, bytes.subarray(0, cut));
    const completeLines = lineEnds.filter((e) => e < cut).length;
    const expected = new TreeBuilder();
    bytes.subarray(0, cut).toString('utf8').split('\n').slice(1, completeLines).forEach((line) => expected.apply(JSON.parse(line)));
    expected.markIncomplete();
    const read = await readTrajectory(cutPath);
    assert.equal(read.eventCount, completeLines - 1, `cut at ${cut}`);
    assert.deepEqual(read.tree, expected.tree, `cut at ${cut}`);
    const torn = cut - 1 !== lineEnds[completeLines - 1];
    assert.equal(read.problems.some((p) => p.kind === 'truncated-line' && p.line === completeLines + 1), torn, `cut at ${cut}`);
    if (cut < bytes.length - 1) assert.ok(read.problems.some((p) => p.kind === 'missing-end'));
  }
});

test('close() ends unfinished runs with status cancelled and the totals so far', async () => {
  const path = join(dir, 'closed.rlm.jsonl');
  const writer = openTrajectoryWriter(path, syntheticHeader(opts));
  const events = [...syntheticEvents({ cells: 3, subCallsPerCell: 2, childEvery: 2 })];
  const stopAt = events.findIndex((e) => e.type === 'run.started' && e.parentRunId !== undefined) + 3;
  for (const record of events.slice(0, stopAt)) writer.write(record);
  writer.close();
  const lines = readFileSync(path, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
  const ends = lines.filter((l) => l.type === 'run.finished');
  assert.deepEqual(ends.map((e) => [e.runId, e.status]), [['run-1-c1-s1-run', 'cancelled'], ['run-1', 'cancelled']]);
  const root = ends[1] as { totals: { inputTokens: number; subCalls: number }; seq: number };
  assert.ok(root.totals.inputTokens > 0 && root.totals.subCalls === 2);
  const read = await readTrajectory(path);
  assert.equal(read.tree?.status, 'cancelled');
  assert.deepEqual(read.problems, []);
  assert.throws(() => writer.write(events[stopAt]!), TrajectoryWriteError);
});

test('abort() ends the file with status error and never throws', async () => {
  const path = join(dir, 'aborted.rlm.jsonl');
  const writer = openTrajectoryWriter(path, syntheticHeader(opts));
  for (const record of [...syntheticEvents({ cells: 2 })].slice(0, 5)) writer.write(record);
  writer.abort('the REPL crashed');
  writer.abort('twice');
  const read = await readTrajectory(path);
  assert.equal(read.tree?.status, 'error');
  assert.deepEqual(read.tree?.error, { kind: 'internal', message: 'the REPL crashed' });
});

test('the writer refuses to replace a file, and events out of order', () => {
  const path = join(dir, 'exists.rlm.jsonl');
  writeFileSync(path, 'keep me');
  assert.throws(() => openTrajectoryWriter(path, syntheticHeader(opts)), (e: unknown) => e instanceof TrajectoryWriteError && /already exists/.test(e.message));
  assert.equal(readFileSync(path, 'utf8'), 'keep me');
  const writer = openTrajectoryWriter(join(dir, 'order.rlm.jsonl'), syntheticHeader(opts));
  const [a, b] = [...syntheticEvents({ cells: 1 })];
  writer.write(b!);
  assert.throws(() => writer.write(a!), /must be written in order/);
  writer.close();
});

test('a failing disk surfaces as TrajectoryWriteError with the path', () => {
  let writes = 0;
  const fs: WriterFs = {
    openSync: () => 3,
    writeSync: (_fd, _buf, _off, length) => {
      if (++writes > 2) throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
      return length;
    },
    fsyncSync: () => undefined,
    closeSync: () => undefined,
  };
  const writer = openTrajectoryWriter('/virtual/run.rlm.jsonl', syntheticHeader(opts), { fs });
  const [first, second] = [...syntheticEvents({ cells: 1 })];
  writer.write(first!);
  assert.throws(() => writer.write(second!), (e: unknown) => e instanceof TrajectoryWriteError && e.path === '/virtual/run.rlm.jsonl' && /ENOSPC/.test(e.message));
  writer.abort('disk full');
  assert.equal(writer.closed, true);
});

test('headerFromRunStarted builds the header the file starts with', async () => {
  const { headerFromRunStarted } = await import('../../../../src/core/trajectory/trajectoryHeader');
  const first = [...syntheticEvents({ cells: 1 })][0]!;
  assert.equal(first.type, 'run.started');
  if (first.type !== 'run.started') return;
  const header = headerFromRunStarted(first, '9.9.9');
  assert.deepEqual(header, { ...syntheticHeader({ cells: 1 }), toolVersion: '9.9.9', startedAt: new Date(first.ts).toISOString() });
});
