// No REPL serves two runs (docs/security.md, layer 4): each run, through the product's pool, gets a
// process that no other run's code has touched, and that process is gone when the run ends. A run that
// tampers with its REPL (the prelude, module state, a timer) cannot reach the next run's answer.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplFactory } from '../../../../src/core/repl/replFactory';
import type { ReplSession } from '../../../../src/core/repl/replTypes';
import type { EventRecord } from '../../../../src/core/trajectory/events';
import { fence, isRootRequest, makeRepl, ofType, runCollect, startModel, turnOf } from './loopTestKit';
import type { Harness, TestRepl } from './loopTestKit';

/** The stdout of the run's first cell. */
function firstCellOutput(events: EventRecord[]): string {
  const cell = ofType(events, 'cell.finished')[0];
  assert.ok(cell, 'the run executed a cell');
  assert.equal(cell.error, undefined, `the cell failed: ${cell.error?.message ?? ''}`);
  return cell.stdout.trim();
}

function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('RLM loop: every run gets a REPL no other run has touched', () => {
  let model: Harness;
  let repl: TestRepl;
  const acquired: ReplSession[] = [];
  let spy: ReplFactory;
  // The first run tampers with everything a later run in the same process would rely on.
  const CELLS: Record<string, string> = {
    tamper: [
      'import sys, builtins, json',
      "api = sys.modules['_rlm_prelude']._rlm_api",
      "api.run_cell = lambda code: json.dumps({'stdout': 'HIJACKED', 'stderr': '', 'stdoutChars': 8, 'stderrChars': 0, 'error': None, 'newVariables': [], 'final': {'value': 'HIJACKED', 'via': 'FINAL'}, 'outIndex': 1, 'interrupted': False})",
      "builtins.print = lambda *a, **k: None",
      "json.dumps = lambda *a, **k: 'HIJACKED'",
      'leftover = "run one"',
      'print(id(context))',
    ].join('\n'),
    honest: 'print("leftover" in globals(), llm_query("who answers?"))',
  };
  before(async () => {
    repl = makeRepl();
    spy = {
      acquire: async (options) => {
        const session = await repl.acquire(options);
        acquired.push(session);
        return session;
      },
      release: (session) => repl.release(session),
    };
    model = await startModel('openai', (r) => {
      if (!isRootRequest(r)) return 'the second run';
      const first = r.messages.find((m) => m.role === 'user')?.content ?? '';
      const name = Object.keys(CELLS).find((q) => first.includes(`Question: ${q}`)) ?? 'tamper';
      return turnOf(r) === 0 ? fence(CELLS[name]!) : fence(`FINAL("${name} done")`);
    });
  });
  after(async () => {
    await repl.dispose();
    await model.close();
  });

  it('serves the next run from a fresh process, untouched by what the first run did, and kills the old one', async () => {
    const context = { kind: 'text' as const, text: 'one shared context' };
    const one = await runCollect({ question: 'tamper', context, root: model.client, repl: spy });
    assert.equal(one.result.status, 'completed');
    const firstPid = acquired[0]?.startup?.pid;
    assert.ok(firstPid, 'the session reports its process id');
    const two = await runCollect({ question: 'honest', context, root: model.client, repl: spy });
    assert.equal(two.result.answer, 'honest done', 'the tampered prelude did not rewrite the next answer');
    assert.equal(acquired.length, 2);
    assert.notEqual(acquired[1], acquired[0]);
    assert.notEqual(acquired[1]?.startup?.pid, firstPid, 'a different REPL process served the second run');
    assert.equal(alive(firstPid), false, 'the first run\'s REPL process was killed when it ended');
    assert.equal(firstCellOutput(two.events), 'False the second run');
    const subcalls = ofType(two.events, 'subcall.started');
    assert.equal(subcalls.length, 1);
    assert.equal(subcalls[0]?.runId, two.result.runId, "the second session's sub-call went to the second run");
    const started = ofType(two.events, 'run.started')[0];
    const processLayer = started?.protections.layers.find((l) => l.id === 'process');
    assert.equal(processLayer?.on, true, 'the run records that its REPL was used by no other run');
  });

  it('keeps a spare started, so the next run does not wait for a REPL start', async () => {
    assert.equal(repl.spareCount, 1);
  });
});
