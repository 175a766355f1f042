import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { detectTrajectoryFormat } from '../../../../src/core/trajectory/trajectoryFormat';
import { readTrajectory } from '../../../../src/core/trajectory/trajectoryReader';
import { NotATrajectoryError, TrajectoryReadError } from '../../../../src/core/trajectory/trajectoryScanner';
import type { ReadProblem } from '../../../../src/core/trajectory/treeTypes';
import { generateTrajectory } from '../../../fixtures/trajectories/generate';
import { tempDir } from './tempDir';

const dir = tempDir('traj-reader');
const base = join(dir, 'base.rlm.jsonl');
generateTrajectory(base, { cells: 3, subCallsPerCell: 1 });
const baseLines = readFileSync(base, 'utf8').trim().split('\n');

function withLines(name: string, lines: string[], trailingNewline = true): string {
  const path = join(dir, name);
  writeFileSync(path, lines.join('\n') + (trailingNewline ? '\n' : ''));
  return path;
}

test('unknown event types are kept and reported with their line number, and the rest is read', async () => {
  const future = JSON.stringify({ type: 'tool.used', runId: 'run-1', seq: 5.5, ts: 1, tool: 'grep' });
  const path = withLines('unknown.rlm.jsonl', [...baseLines.slice(0, 5), future, ...baseLines.slice(5)]);
  const seen: ReadProblem[] = [];
  const read = await readTrajectory(path, { onProblem: (p) => seen.push(p) });
  assert.deepEqual(read.unknownEvents, [{ line: 6, record: JSON.parse(future) }]);
  assert.deepEqual(read.problems.map((p) => [p.line, p.kind]), [[6, 'unknown-event']]);
  assert.deepEqual(seen, read.problems);
  assert.equal(read.tree?.status, 'completed');
  assert.equal(read.tree?.turns.length, 3);
});

test('a missing end gives status incomplete and a missing-end problem', async () => {
  const path = withLines('noend.rlm.jsonl', baseLines.slice(0, -2));
  const read = await readTrajectory(path);
  assert.equal(read.tree?.status, 'incomplete');
  assert.deepEqual(read.problems.map((p) => p.kind), ['missing-end']);
  assert.equal(read.problems[0]?.message, `run ${read.tree?.runId} has no run.finished: the file ends before the run did`);
});

test('a torn last line is reported as truncated; a bad line in the middle as invalid-json', async () => {
  const torn = baseLines[8]!.slice(0, 30);
  const path = withLines('torn.rlm.jsonl', [...baseLines.slice(0, 4), '{"type": "turn.sta', ...baseLines.slice(4, 8), torn], false);
  const read = await readTrajectory(path);
  assert.deepEqual(read.problems.map((p) => [p.line, p.kind]), [[5, 'invalid-json'], [10, 'truncated-line'], [9, 'missing-end']]);
  assert.equal(read.eventCount, 7);
});

test('records missing required fields are skipped as invalid, out-of-order seqs are reported', async () => {
  const bad = JSON.stringify({ type: 'cell.started', runId: 'run-1', seq: 100, ts: 1, turn: 1 });
  const early = { ...(JSON.parse(baseLines[3]!) as Record<string, unknown>) };
  const path = withLines('invalid.rlm.jsonl', [...baseLines.slice(0, 4), bad, '[1,2]', JSON.stringify({ ...early, seq: 1, type: 'limit.warning', limit: 'iterations', value: 1, max: 2 }), ...baseLines.slice(4)]);
  const read = await readTrajectory(path);
  assert.deepEqual(read.problems.map((p) => [p.line, p.kind]), [[5, 'invalid-record'], [6, 'invalid-record'], [7, 'out-of-order']]);
  assert.match(read.problems[0]!.message, /cell\.started\.cellId/);
  assert.equal(read.tree?.limitWarnings.length, 1);
});

test('a header from a newer version is read with a problem noted', async () => {
  const header = { ...(JSON.parse(baseLines[0]!) as Record<string, unknown>), version: 2 };
  const read = await readTrajectory(withLines('v2.rlm.jsonl', [JSON.stringify(header), ...baseLines.slice(1)]));
  assert.deepEqual(read.problems.map((p) => [p.line, p.kind]), [[1, 'newer-version']]);
  assert.equal(read.tree?.status, 'completed');
});

test('files that are not trajectories get NotATrajectoryError with a clear reason', async () => {
  const cases: Array<[string, string | Buffer, RegExp]> = [
    ['empty.jsonl', '', /empty/],
    ['blank.jsonl', '\n\n  \n', /empty/],
    ['binary.bin', Buffer.from([0x7b, 0x00, 0x01, 0x02]), /binary/],
    ['text.txt', 'hello world\n', /does not start with a JSON object/],
    ['other.jsonl', '{"level":"info","msg":"server started"}\n', /neither an rlm-trajectory header nor an rlm \(Python\) log entry/],
    ['cut-header.jsonl', '{"format":"rlm-trajectory","versi', /ends inside its first line/],
  ];
  for (const [name, content, reason] of cases) {
    const path = join(dir, name);
    writeFileSync(path, content);
    await assert.rejects(readTrajectory(path), (e: unknown) => {
      assert.ok(e instanceof NotATrajectoryError, `${name}: ${String(e)}`);
      assert.equal(e.path, path);
      assert.match(e.message, reason);
      assert.match(e.message, /not an RLM trajectory/);
      return true;
    });
  }
  await assert.rejects(readTrajectory(join(dir, 'missing.rlm.jsonl')), (e: unknown) => e instanceof TrajectoryReadError && e.code === 'ENOENT' && /does not exist/.test(e.message));
  await assert.rejects(readTrajectory(dir), (e: unknown) => e instanceof TrajectoryReadError && /is a folder/.test(e.message));
});

test('detectTrajectoryFormat recognises both formats from the first line alone', () => {
  assert.equal(detectTrajectoryFormat(baseLines[0]!).kind, 'rlm-trajectory');
  assert.equal(detectTrajectoryFormat('{"type":"metadata","root_model":"gpt-5"}').kind, 'rlm-python-jsonl');
  assert.equal(detectTrajectoryFormat('\uFEFF{"type":"iteration","iteration":1}').kind, 'rlm-python-jsonl');
  assert.equal(detectTrajectoryFormat('{"format":"rlm-trajectory","version":"one"}').kind, 'unknown');
  assert.equal(detectTrajectoryFormat('{"format":"other"}').kind, 'unknown');
  assert.equal(detectTrajectoryFormat('[]').kind, 'unknown');
  assert.equal(detectTrajectoryFormat('not json').kind, 'unknown');
});

test('readLines splits across chunk boundaries, keeps multi-byte characters whole and flags the unterminated tail', async () => {
  const { readLines } = await import('../../../../src/core/trajectory/lineReader');
  const path = join(dir, 'lines.txt');
  writeFileSync(path, 'héllo wörld\r\n\n€€€ long line spanning chunks\nlast');
  const lines = [];
  for await (const line of readLines(path, { chunkBytes: 5 })) lines.push(line);
  assert.deepEqual(lines, [
    { number: 1, text: 'héllo wörld', terminated: true },
    { number: 2, text: '', terminated: true },
    { number: 3, text: '€€€ long line spanning chunks', terminated: true },
    { number: 4, text: 'last', terminated: false },
  ]);
});

test('the committed sample fixture reads without problems', async () => {
  const read = await readTrajectory(join(import.meta.dirname, '../../../fixtures/trajectories/sample.rlm.jsonl'));
  assert.deepEqual(read.problems, []);
  assert.equal(read.tree?.status, 'completed');
  assert.equal(read.tree?.turns.length, 4);
});
