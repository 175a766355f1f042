// The walk reports how far it got (for a first request sent before it ends), and stops as soon as a
// folder passes what may be listed rather than walking the rest of a huge tree to refuse it.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { nodeContextFs, planPaths } from '../../../../src/core/context/contextPlan';
import type { ContextFs } from '../../../../src/core/context/contextPlan';
import { ContextTooLargeError } from '../../../../src/core/context/contextErrors';
import type { PlanProgress } from '../../../../src/core/context/contextTypes';

describe('the walk’s progress', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-plan-progress-'));
    for (let d = 0; d < 3; d++) {
      mkdirSync(join(dir, 'tree', `d${d}`), { recursive: true });
      for (let f = 0; f < 60; f++) writeFileSync(join(dir, 'tree', `d${d}`, `f${f}.txt`), 'x'.repeat(100));
    }
    writeFileSync(join(dir, 'tree', 'logo.png'), 'not counted');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('counts every file and byte planned, and keeps the first 100 found', async () => {
    const progress: PlanProgress = { fileCount: 0, totalBytes: 0, firstFiles: [] };
    const plan = await planPaths(['tree'], { cwd: dir, progress });
    assert.equal(progress.fileCount, 180);
    assert.equal(progress.totalBytes, 18_000);
    assert.equal(progress.firstFiles.length, 100);
    assert.equal(plan.files.length, 180);
    assert.ok(progress.firstFiles.every((f) => f.bytes === 100 && f.path.startsWith('tree/d')), 'binaries skipped by name are not counted');
  });

  it('stops at the first file past the listing limit, saying the total is a floor', async () => {
    let stats = 0;
    // Files' lstats only: looking for an enclosing repository's `.git` above the folder is not the walk.
    const fs: ContextFs = { ...nodeContextFs, lstat: (path) => (basename(path) === '.git' || stats++, nodeContextFs.lstat(path)) };
    await assert.rejects(planPaths(['tree'], { cwd: dir, fs, maxTotalBytes: 1000, maxListedBytes: 5000 }), (error: unknown) => {
      assert.ok(error instanceof ContextTooLargeError);
      assert.equal(error.atLeast, true);
      assert.equal(error.bytes, 5100);
      assert.match(error.message, /holds more than/);
      return true;
    });
    assert.equal(stats, 51, 'the walk ended at the 51st file, not after all 180');
  });
});
