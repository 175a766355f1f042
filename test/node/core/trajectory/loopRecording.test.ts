// The real loop (fake model server, real REPL from dist/) recorded through the writer: the file reads
// back into the tree built live, with no problems, and the tree's totals agree with the loop's own.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { readTrajectory } from '../../../../src/core/trajectory/trajectoryReader';
import { headerFromRunStarted } from '../../../../src/core/trajectory/trajectoryHeader';
import { openTrajectoryWriter } from '../../../../src/core/trajectory/trajectoryWriter';
import type { TrajectoryWriter } from '../../../../src/core/trajectory/trajectoryWriter';
import { TreeBuilder } from '../../../../src/core/trajectory/treeBuilder';
import { createRlmRun } from '../../../../src/core/loop/rlmRun';
import { fence, isRootRequest, makeRepl, startModel, turnOf } from '../loop/loopTestKit';
import type { Harness, TestRepl } from '../loop/loopTestKit';
import type { FakeModelRequest } from '../../../../src/eval/fakeServers/fakeServerTypes';
import { tempDir } from '../../../unit/core/trajectory/tempDir';

const dir = tempDir('traj-loop');
const KEY = 'sk-test-loop-recording-key-0123456789';

function script(request: FakeModelRequest): string {
  if (!isRootRequest(request)) return `sub says: ${request.messages[0]?.content.slice(0, 12)}`;
  const question = request.messages.find((m) => m.role === 'user')?.content ?? '';
  const turn = turnOf(request);
  if (question.includes('Question: Count the words')) {
    if (turn === 0) return `Let me look.\n${fence('print(len(context.split()))\nparts = llm_query_batched(["a", "b"])\nprint(parts)')}`;
    if (turn === 1) return fence('r = rlm_query("Summarise", context[:40])\nprint(r)');
    return fence('FINAL(str(len(context.split())))');
  }
  return turn === 0 ? fence('print(llm_query("inner"))') : fence('FINAL("child done")');
}

let model: Harness;
let repl: TestRepl;
before(async () => {
  repl = makeRepl();
  model = await startModel('openai', script, { apiKey: KEY });
});
after(async () => {
  await repl.dispose();
  await model.close();
});

test('a real loop run is recorded and read back into the live tree', async () => {
  const path = join(dir, 'loop.rlm.jsonl');
  const live = new TreeBuilder();
  let writer: TrajectoryWriter | undefined;
  const run = createRlmRun({ question: 'Count the words', context: { kind: 'text', text: 'one two three four five six seven' }, root: model.client, repl, limits: { maxDepth: 1 } });
  try {
    for await (const record of run) {
      if (!writer && record.type === 'run.started') writer = openTrajectoryWriter(path, headerFromRunStarted(record, '0.0.0-test'), { secrets: [KEY] });
      live.apply(record);
      writer?.write(record);
    }
  } catch (error) {
    writer?.abort(String(error));
    throw error;
  }
  writer?.close();
  const result = await run.run();
  assert.equal(result.status, 'completed', JSON.stringify(result.error));
  const read = await readTrajectory(path);
  assert.deepEqual(read.problems, []);
  // The loop's records may hold properties set to undefined (e.g. config.maxCostUsd), which JSON drops.
  assert.deepEqual(read.tree, JSON.parse(JSON.stringify(live.tree)));
  const tree = read.tree!;
  assert.equal(tree.answer, '7');
  assert.equal(tree.totals.inputTokens, result.totals.inputTokens);
  assert.equal(tree.totals.outputTokens, result.totals.outputTokens);
  assert.equal(tree.totals.subCalls, result.totals.subCalls);
  assert.ok(!readFileSync(path, 'utf8').includes(KEY), 'the configured key is not in the file');
  const child = tree.turns[1]!.cells[0]!.subCalls[0]!.child;
  assert.equal(child?.answer, 'child done');
});
