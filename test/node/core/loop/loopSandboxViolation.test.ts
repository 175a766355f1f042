// A run whose REPL process breaks the host's protocol (a cell with layer 1 weakened writes 12 raw bytes
// to the channel, the write that crashed the host over Node's IPC) ends with `sandbox_violation`: the
// host survives, no further turn runs, and the recorded trajectory reads back whole, ending with
// run.finished. Control: the same run without the write completes.
import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createRlmRun } from '../../../../src/core/loop/rlmRun';
import { createBridgeRouter } from '../../../../src/core/repl/replFactory';
import { ReplPool } from '../../../../src/core/repl/replPool';
import { createReplSession } from '../../../../src/core/repl/replSession';
import type { EventRecord } from '../../../../src/core/trajectory/events';
import { headerFromRunStarted } from '../../../../src/core/trajectory/trajectoryHeader';
import { readTrajectory } from '../../../../src/core/trajectory/trajectoryReader';
import { openTrajectoryWriter } from '../../../../src/core/trajectory/trajectoryWriter';
import { tempDir } from '../../../unit/core/trajectory/tempDir';
import { ATTACKER, repoRoot } from '../repl/replTestKit';
import { fence, isRootRequest, startModel, turnOf } from './loopTestKit';
import type { Harness } from './loopTestKit';

const dir = tempDir('loop-violation');
const ATTACK = `${ATTACKER}\nraw(5, bytes([0, 0, 0, 12]) + bytes(range(1, 13)))\nimport time\ntime.sleep(0.5)\nprint('still here')`;
const HARMLESS = `${ATTACKER}\nprint('still here')`;

let model: Harness;
let pool: ReplPool;
before(async () => {
  model = await startModel('openai', (request) => {
    if (!isRootRequest(request)) return 'sub';
    const question = request.messages.find((m) => m.role === 'user')?.content ?? '';
    if (turnOf(request) === 0) return fence(question.includes('attack') ? ATTACK : HARMLESS);
    return fence('FINAL("done")');
  });
  // Layers 1 and 2 weakened, as if a cell had reached JS and the worker's `fs`: the route issue 30 found.
  pool = new ReplPool({
    create: (bridge) => createReplSession({ bridge, distDir: join(repoRoot, 'dist'), snapshotCacheDir: join(tmpdir(), 'rlm-loop-test-snapshots'), weakenForTest: { python: true, runtime: true }, allowWeakerSandbox: true }),
    createBridgeRouter,
    spares: 0,
  });
});
after(async () => {
  await pool.dispose();
  await model.close();
});

async function recordedRun(question: string): Promise<{ status: string; kind?: string; events: EventRecord[]; path: string }> {
  const path = join(dir, `${question.replace(/\W+/g, '-')}.rlm.jsonl`);
  const run = createRlmRun({ question, context: { kind: 'text', text: 'some text' }, root: model.client, repl: pool });
  const events: EventRecord[] = [];
  let writer: ReturnType<typeof openTrajectoryWriter> | undefined;
  for await (const record of run) {
    if (!writer && record.type === 'run.started') writer = openTrajectoryWriter(path, headerFromRunStarted(record, '0.0.0-test'));
    writer?.write(record);
    events.push(record);
  }
  writer?.close();
  const result = await run.run();
  return { status: result.status, kind: result.error?.kind, events, path };
}

describe('a REPL process that breaks the protocol ends the run with sandbox_violation', () => {
  it('the host survives, the run ends at once, and the trajectory is valid and ends with run.finished', async () => {
    const { status, kind, events, path } = await recordedRun('attack the host');
    assert.equal(status, 'error');
    assert.equal(kind, 'sandbox_violation');
    assert.equal(events.at(-1)?.type, 'run.finished');
    assert.equal(events.filter((e) => e.type === 'cell.started').length, 1, 'no turn after the violation');
    const read = await readTrajectory(path);
    assert.deepEqual(read.problems, []);
    assert.equal(read.tree?.status, 'error');
  });

  it('control: the same run without the write completes', async () => {
    const { status, events } = await recordedRun('harmless');
    assert.equal(status, 'completed');
    assert.equal(events.at(-1)?.type, 'run.finished');
  });
});
