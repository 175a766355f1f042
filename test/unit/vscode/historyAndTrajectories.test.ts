import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EventRecord, RunEvent } from '../../../src/core/trajectory/events';
import { deleteHistoryFile, isInsideDirectory, listHistory } from '../../../src/vscode/history/historyIndex';
import { resolveTrajectoryDirectory, TrajectoryDirectoryError } from '../../../src/vscode/history/trajectoryDirectory';
import { FileTrajectorySink, trajectoryFileName } from '../../../src/vscode/run/trajectorySink';
import { finished, runStarted } from './runFakes';

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'rlm-history-'));
  try {
    await fn(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function record(e: RunEvent, seq: number): EventRecord {
  return { ...e, seq, ts: Date.UTC(2026, 11, 2, 14, 0, seq) } as EventRecord;
}

function recordRun(dir: string, runId: string, question: string, answer: string | undefined, secret: string): string {
  const errors: unknown[] = [];
  const sink = new FileTrajectorySink({ directory: join(dir, 'runs'), runId, toolVersion: '0.1.0', secrets: [secret], now: () => Date.UTC(2026, 11, 2, 14, 0, 0), onError: (e) => errors.push(e) });
  sink.write(record({ type: 'turn.started', runId, turn: 1 }, 1)); // before run.started: nothing to open yet
  sink.write(record(runStarted(runId, question), 2));
  sink.write(record({ type: 'model.delta', runId, turn: 1, text: `leaked ${secret}` }, 3));
  if (answer !== undefined) sink.write(record(finished(runId, `${answer} ${secret}`), 4));
  void sink.close();
  assert.deepEqual(errors, []);
  return sink.path;
}

test('runs recorded by the sink are listed newest first with question, status and answer; keys are scrubbed', async () => {
  await withDir(async (dir) => {
    const a = recordRun(dir, 'run-a', 'How is auth done?', 'With tokens.', 'sk-secret-1234567890');
    const b = recordRun(dir, 'run-b', 'Stopped one', undefined, 'sk-secret-1234567890');
    await writeFile(join(dir, 'runs', 'notes.rlm.jsonl'), 'not json\n');
    const items = await listHistory(join(dir, 'runs'));
    assert.equal(items.length, 2, 'files that are not trajectories are left out');
    const byId = Object.fromEntries(items.map((i) => [i.runId, i]));
    assert.equal(byId['run-a']?.question, 'How is auth done?');
    assert.equal(byId['run-a']?.status, 'completed');
    assert.match(byId['run-a']?.answerPreview ?? '', /^With tokens\./);
    assert.equal(byId['run-b']?.status, 'cancelled', 'a run closed without run.finished is recorded as cancelled');
    const text = await readFile(a, 'utf8');
    assert.doesNotMatch(text, /sk-secret-1234567890/);
    assert.doesNotMatch(text, /leaked/, 'live-only deltas are not persisted');
    assert.ok(b.endsWith('-run-b.rlm.jsonl'));
  });
});

test('a missing directory is an empty history; deleting refuses paths outside it', async () => {
  await withDir(async (dir) => {
    assert.deepEqual(await listHistory(join(dir, 'nope')), []);
    const path = recordRun(dir, 'run-c', 'q', 'a', 'k');
    await assert.rejects(deleteHistoryFile(join(dir, 'runs'), join(dir, 'other.rlm.jsonl')), /Refusing to delete/);
    await assert.rejects(deleteHistoryFile(join(dir, 'runs'), join(dir, 'runs', '..', 'x.rlm.jsonl')), /Refusing/);
    assert.equal(isInsideDirectory(join(dir, 'runs'), path), true);
    await deleteHistoryFile(join(dir, 'runs'), path);
    assert.deepEqual(await listHistory(join(dir, 'runs')), []);
  });
});

test('trajectory file names read by their question and keep ids file-system safe', () => {
  const at = Date.UTC(2026, 11, 2, 14, 5, 31);
  assert.equal(trajectoryFileName(at, 'run/../x:y'), '2026-12-02T14-05-31-run____x_y.rlm.jsonl');
  assert.equal(trajectoryFileName(at, 'run-1a2b3c4d5e6f', 'Which functions write to the database, and where?'), '2026-12-02T14-05-31-which-functions-write-to-the-database-and-where-3c4d5e6f.rlm.jsonl');
  assert.equal(trajectoryFileName(at, 'run-1', 'Café: ../../etc/passwd?'), '2026-12-02T14-05-31-cafe-etc-passwd-1.rlm.jsonl');
  assert.equal(trajectoryFileName(at, 'run-1', '？？'), '2026-12-02T14-05-31-run-1.rlm.jsonl', 'nothing readable: the id alone');
});

test('trajectory file names sort by time, whatever the run ids (listHistory keeps the newest files by name)', () => {
  // Neighbours across every field's carry (second, minute, hour, day, month, year) and digit count,
  // each with a run id that would sort the other way if the id decided.
  const times = [
    Date.UTC(2025, 11, 31, 23, 59, 59),
    Date.UTC(2026, 0, 1, 0, 0, 0),
    Date.UTC(2026, 0, 1, 0, 0, 9),
    Date.UTC(2026, 0, 1, 0, 0, 10),
    Date.UTC(2026, 0, 1, 9, 59, 59),
    Date.UTC(2026, 0, 1, 10, 0, 0),
    Date.UTC(2026, 0, 9, 0, 0, 0),
    Date.UTC(2026, 0, 10, 0, 0, 0),
    Date.UTC(2026, 8, 30, 0, 0, 0),
    Date.UTC(2026, 9, 1, 0, 0, 0),
  ];
  const named = times.map((ms, i) => ({ ms, name: trajectoryFileName(ms, `${'zyxwvutsrq'[i]}-run`) }));
  const byName = [...named].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  assert.deepEqual(byName.map((n) => n.ms), times, `sorted by name: ${byName.map((n) => n.name).join(', ')}`);
});

test('the trajectory directory: explicit setting, .rlm/runs in the workspace, else extension storage', () => {
  const base = { setting: '', inWorkspace: false, firstFolder: '/ws', workspaceStorage: '/storage/ws1', globalStorage: '/storage/global' };
  assert.equal(resolveTrajectoryDirectory(base), '/storage/ws1/runs');
  assert.equal(resolveTrajectoryDirectory({ ...base, inWorkspace: true }), '/ws/.rlm/runs');
  assert.equal(resolveTrajectoryDirectory({ ...base, setting: 'out/runs' }), '/ws/out/runs');
  assert.equal(resolveTrajectoryDirectory({ ...base, setting: '/abs/runs', inWorkspace: true }), '/abs/runs');
  assert.equal(resolveTrajectoryDirectory({ setting: '', inWorkspace: true, globalStorage: '/g' }), '/g/runs');
  assert.throws(() => resolveTrajectoryDirectory({ setting: 'rel', inWorkspace: false, globalStorage: '/g' }), TrajectoryDirectoryError);
});

test('a run an agent asked is recorded with askedBy and marked in History; a hostile client name is kept plain and short', async () => {
  await withDir(async (dir) => {
    const sink = new FileTrajectorySink({ directory: join(dir, 'runs'), runId: 'run-agent', toolVersion: '0.1.0', secrets: [], askedBy: { kind: 'agent', via: 'vscode-tool' }, now: () => Date.UTC(2026, 11, 2, 14, 0, 0), onError: (e) => assert.fail(String(e)) });
    sink.write(record(runStarted('run-agent', 'Where is auth?'), 1));
    sink.write(record(finished('run-agent', 'In auth.ts.'), 2));
    await sink.close();
    const header = JSON.parse((await readFile(sink.path, 'utf8')).split('\n')[0]!) as { askedBy?: unknown };
    assert.deepEqual(header.askedBy, { kind: 'agent', via: 'vscode-tool' });
    const hostile = JSON.stringify({ format: 'rlm-trajectory', version: 1, question: 'q', runId: 'run-mcp', askedBy: { kind: 'agent', via: 'mcp', client: '<img src=x>\u202e' + 'x'.repeat(100) } });
    await writeFile(join(dir, 'runs', 'mcp.rlm.jsonl'), `${hostile}\n`);
    const items = await listHistory(join(dir, 'runs'));
    const byId = Object.fromEntries(items.map((i) => [i.runId, i]));
    assert.equal(byId['run-agent']?.askedBy, 'an agent (chat tool)');
    assert.equal(byId['run-mcp']?.askedBy, `an agent (MCP: img srcx${'x'.repeat(32)})`);
  });
});
