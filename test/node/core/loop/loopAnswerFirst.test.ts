// The answer first (RunOptions.onAnswer): a caller is told the root's answer, with the run's status,
// the moment it is final, before the bookkeeping that reads the input again (citations, the coverage
// strip), which still lands in the trajectory before run() resolves. Child runs never call it, and a
// run without an answer does not either.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { planPaths } from '../../../../src/core/context/contextPlan';
import type { FinalRunAnswer } from '../../../../src/core/loop/loopTypes';
import { createRlmRun } from '../../../../src/core/loop/rlmRun';
import { fence, lastUser, makeRepl, startModel, turnOf } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';

describe('the answer first', () => {
  let repl: TestRepl;
  let dir: string;
  const models: Harness[] = [];
  before(() => {
    repl = makeRepl();
    dir = mkdtempSync(join(tmpdir(), 'rlm-answer-first-'));
    writeFileSync(join(dir, 'notes.txt'), 'first line of the notes\nthe key is 4417 in the second line\nthird line of the notes\n');
  });
  after(async () => {
    await Promise.all(models.map((m) => m.close()));
    await repl.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('tells the caller the answer before the citations and coverage are recorded, then completes the trajectory', async () => {
    const model = await startModel('openai', (req) => {
      if (/child: what is the key/.test(req.messages[0]?.content ?? '')) return fence('FINAL("4417 (child)")');
      return turnOf(req) === 0 ? fence('print(context[:60])\nhelper = rlm_query("child: what is the key?", context)\nprint(helper)') : fence('FINAL("The key is 4417 (notes.txt:2).")');
    });
    models.push(model);
    const plan = await planPaths(['notes.txt'], { cwd: dir });
    // Records reach the iterator a microtask after they are emitted, and the bookkeeping reads files
    // (turns of the event loop) before it records anything: what the iterator holds when the caller
    // is told the answer is everything emitted before it, and nothing of the bookkeeping.
    const answers: FinalRunAnswer[] = [];
    const types: string[] = [];
    let seenAtAnswer = -1;
    const run = createRlmRun({
      question: 'What is the key?',
      context: { kind: 'plan', plan },
      root: model.client,
      repl,
      onAnswer: (answer) => {
        answers.push(answer);
        seenAtAnswer = types.length;
      },
    });
    for await (const record of run) types.push(record.type);
    const result = await run.run();
    assert.equal(answers.length, 1, 'once, for the root run only (its child answered too)');
    assert.deepEqual(answers[0], { runId: result.runId, status: 'completed', text: 'The key is 4417 (notes.txt:2).', forced: false });
    assert.match(lastUser(model.server.requests.at(-1)!.parsed!), /4417 \(child\)/, 'the child ran and answered');
    for (const later of ['references', 'coverage', 'run.finished']) {
      const at = types.lastIndexOf(later);
      assert.ok(at >= seenAtAnswer, `${later} (record ${at}) is recorded after the caller was told (at record ${seenAtAnswer})`);
    }
    assert.equal(result.references?.[0]?.line, 2, 'the citation is still resolved, into the result too');
  });

  it('is not called when the run ends without an answer', async () => {
    const model = await startModel('openai', () => fence('print("still looking")'));
    models.push(model);
    const answers: FinalRunAnswer[] = [];
    const run = createRlmRun({ question: 'Anything?', context: { kind: 'text', text: 'tiny' }, root: model.client, repl, limits: { maxIterations: 1 }, onAnswer: (a) => answers.push(a) });
    const result = await run.run();
    assert.equal(result.answer, undefined);
    assert.equal(answers.length, 0);
  });
});
