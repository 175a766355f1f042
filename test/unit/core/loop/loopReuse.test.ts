// Warm REPL reuse across runs: the pool hands the next run the same process with a reset namespace.
// On the same context it is not even rebound; on a different one only the new context is visible.
// Sub-calls of the reused process reach the run using it now.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplFactory } from '../../../../src/core/loop/loopTypes';
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

describe('RLM loop: a warm REPL reused across runs', () => {
  let model: Harness;
  let repl: TestRepl;
  const acquired: ReplSession[] = [];
  let spy: ReplFactory;
  const CELLS: Record<string, string> = {
    first: 'leftover = "run one"\nprint(id(context))',
    second: 'mine = 2\nprint("leftover" in globals(), id(context), llm_query("who answers?"))',
    third: 'print("leftover" in globals(), "mine" in globals(), context)',
  };
  before(async () => {
    repl = makeRepl();
    spy = {
      acquire: async (options) => {
        const session = await repl.acquire(options);
        acquired.push(session);
        return session;
      },
      release: (session, reusable) => repl.release(session, reusable),
    };
    model = await startModel('openai', (r) => {
      if (!isRootRequest(r)) return 'the second run';
      const first = r.messages.find((m) => m.role === 'user')?.content ?? '';
      const name = Object.keys(CELLS).find((q) => first.includes(`Question: ${q}`)) ?? 'first';
      return turnOf(r) === 0 ? fence(CELLS[name]!) : fence(`FINAL("${name} done")`);
    });
  });
  after(async () => {
    await repl.dispose();
    await model.close();
  });

  it('serves the next run on the same context from the same process, without a rebind and without leaks', async () => {
    const context = { kind: 'text' as const, text: 'one shared context' };
    const one = await runCollect({ question: 'first', context, root: model.client, repl: spy });
    assert.equal(one.result.answer, 'first done');
    const pid = acquired[0]?.startup?.pid;
    const contextId = firstCellOutput(one.events);
    const two = await runCollect({ question: 'second', context, root: model.client, repl: spy });
    assert.equal(two.result.status, 'completed');
    assert.equal(acquired.length, 2);
    assert.equal(acquired[1], acquired[0], 'the pool handed out the warm session again');
    assert.ok(pid, 'the session reports its process id');
    assert.equal(acquired[1]?.startup?.pid, pid, 'the same REPL process served both runs');
    assert.equal(acquired[1]?.startup?.restarts, 0);
    // Not rebound: the very same `context` object; not leaked: run one's variable is gone.
    assert.equal(firstCellOutput(two.events), `False ${contextId} the second run`);
    const subcalls = ofType(two.events, 'subcall.started');
    assert.equal(subcalls.length, 1);
    assert.equal(subcalls[0]?.runId, two.result.runId, "the reused session's sub-call went to the run using it now");
    assert.equal(two.result.totals.subCalls, 1);
    assert.equal(one.result.totals.subCalls, 0);
  });

  it('a run on a different context after reuse sees the new context only', async () => {
    const context = { kind: 'files' as const, files: [{ path: 'b.txt', content: 'another context' }] };
    const three = await runCollect({ question: 'third', context, root: model.client, repl: spy });
    assert.equal(three.result.answer, 'third done');
    assert.equal(acquired[2], acquired[0], 'still the same warm session');
    assert.equal(acquired[2]?.startup?.pid, acquired[0]?.startup?.pid);
    assert.equal(firstCellOutput(three.events), "False False {'b.txt': 'another context'}");
  });
});
