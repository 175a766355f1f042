// Reading a trajectory file progressively for the editor: first screen early, the rest as changes.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { NotATrajectoryError } from '../../../../src/core/trajectory/trajectoryScanner';
import { FileLoad } from '../../../../src/vscode/trajectory/fileLoad';
import type { RunChange } from '../../../../src/vscode/trajectory/trajectorySession';
import { generateTrajectory } from '../../../fixtures/trajectories/generate';

const dir = mkdtempSync(join(tmpdir(), 'rlm-fileload-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('FileLoad', () => {
  it('shows the first turns before the end, then reports every later turn as a change', async () => {
    const path = join(dir, 'run.rlm.jsonl');
    generateTrajectory(path, { cells: 400, subCallsPerCell: 2 });
    const load = new FileLoad(path, { source: 'run.rlm.jsonl', firstScreenTurns: 24, flushMs: 5 });
    const seen = new Set<number>();
    const changes: RunChange[][] = [];
    load.onChange((c) => {
      changes.push(c);
      for (const change of c) for (const t of change.changedTurns) seen.add(t);
    });
    await load.firstScreen;
    assert.ok(load.root().turns.length >= 24, 'the first screen is in');
    await load.done;
    assert.equal(load.loading, false);
    assert.equal(load.root().turns.length, 400);
    assert.equal(load.root().status, 'completed');
    const info = load.info();
    assert.deepEqual([info.format, info.loading, info.problems.count], ['rlm', false, 0]);
    assert.ok(changes.length >= 1);
    const last = changes[changes.length - 1]!;
    assert.ok(last.some((c) => c.runId === 'run-1'), 'the end is announced for the root run');
    for (let t = load.root().turns.length - 1; t >= 0 && t >= 400 - 50; t--) assert.ok(seen.has(t), `turn ${t} was reported`);
  });

  it('reports a file that ends early as incomplete, with the problem', async () => {
    const path = join(dir, 'cut.rlm.jsonl');
    generateTrajectory(path, { cells: 5, unfinished: true });
    const load = new FileLoad(path, { source: 'cut', flushMs: 1 });
    await load.done;
    assert.equal(load.root().status, 'incomplete');
    assert.match(load.info().problems.first.join('\n'), /no run.finished/);
  });

  it('refuses a file that is not a trajectory through firstScreen', async () => {
    const path = join(dir, 'notes.jsonl');
    writeFileSync(path, '{"hello": "world"}\n');
    const load = new FileLoad(path, { source: 'notes.jsonl' });
    await assert.rejects(load.firstScreen, (error: unknown) => error instanceof NotATrajectoryError && /not an RLM trajectory/.test(error.message));
  });
});
