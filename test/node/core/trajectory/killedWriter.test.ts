import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { readTrajectory } from '../../../../src/core/trajectory/trajectoryReader';
import { tempDir } from '../../../unit/core/trajectory/tempDir';

const dir = tempDir('traj-kill');
const child = join(import.meta.dirname, '../../../fixtures/trajectories/writeUntilKilled.ts');

test('a writer killed with SIGKILL mid-run leaves a file whose every complete line is valid', async (t) => {
  const path = join(dir, 'killed.rlm.jsonl');
  const proc = spawn(process.execPath, ['--import', 'tsx', child, path, '200'], { stdio: ['ignore', 'pipe', 'pipe'] });
  t.after(() => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  });
  let stderr = '';
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  await new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
    proc.on('exit', (code) => reject(new Error(`writer exited early (${code}): ${stderr}`)));
  });
  // Let it keep writing for a moment so the kill lands mid-stream.
  await new Promise((r) => setTimeout(r, 30));
  const exited = new Promise((r) => proc.on('exit', r));
  proc.kill('SIGKILL');
  await exited;
  const text = readFileSync(path, 'utf8');
  const lines = text.split('\n');
  const last = lines.pop()!;
  assert.ok(lines.length >= 200, `${lines.length} lines`);
  for (const line of lines) JSON.parse(line);
  const read = await readTrajectory(path);
  assert.equal(read.eventCount, lines.length - 1);
  assert.equal(read.tree?.status, 'incomplete');
  const kinds = read.problems.map((p) => p.kind);
  assert.deepEqual(kinds, last === '' ? ['missing-end'] : ['truncated-line', 'missing-end']);
});
