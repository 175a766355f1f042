// bench/runAll.ts: module discovery, a failing module recorded visibly while the others still run,
// and RESULTS.md with the machine, every figure, its target and whether it was met.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchModules, machineInfo, renderResults, runModules } from '../../../bench/runAll';

const dir = mkdtempSync(join(tmpdir(), 'rlm-runall-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a throwing module is recorded as failed and the next module still runs', async () => {
  writeFileSync(join(dir, 'aFailBench.ts'), "export async function run() { throw new Error('disk on fire'); }\n");
  writeFileSync(
    join(dir, 'bGoodBench.ts'),
    "export async function run() { return [{ group: 'Loop', name: 'overhead per turn', value: 3.2, unit: 'ms', runs: 5, target: '≤ 5 ms', met: true }," +
      " { group: 'Loop', name: 'fan-out', value: 0.4, unit: 'ratio', runs: 1, target: '≥ 0.8', met: false, note: 'slow | odd' }]; }\n",
  );
  writeFileSync(join(dir, 'helpers.ts'), 'export const x = 1;\n');
  assert.deepEqual(benchModules(dir), ['aFailBench.ts', 'bGoodBench.ts']);
  const outcomes = await runModules(benchModules(dir), dir, () => undefined);
  assert.equal(outcomes.length, 2);
  assert.match(outcomes[0]!.error ?? '', /disk on fire/);
  assert.equal(outcomes[1]!.error, undefined);
  assert.equal(outcomes[1]!.figures.length, 2);

  const md = renderResults({ ...machineInfo(new Date('2026-12-02T15:00:00Z')), loadAtStart: 3.25, loadAtEnd: 7 }, outcomes);
  assert.match(md, /- CPU: .+ × \d+ cores/);
  assert.match(md, /- Node: v\d+/);
  assert.match(md, /- Date: 2026-12-02T15:00:00.000Z/);
  assert.match(md, /- Load average \(1 min\): 3\.3 at the start, 7\.0 at the end/);
  assert.match(md, /## ⚠ Failed modules[\s\S]*\*\*aFailBench\.ts\*\*: .*disk on fire/);
  assert.match(md, /\| overhead per turn \| 3\.20 ms \| ≤ 5 ms \| ✅ \| 5 \|/);
  assert.match(md, /\| fan-out \| 0\.40 ratio \| ≥ 0\.8 \| ❌ missed \| 1 \| slow \\\| odd \|/);
  assert.match(md, /1 targets met, 1 missed; 1 module\(s\) failed/);
});
