// A child run's session nested in its parent's REPL (issue 33, item 1), through the real process: the
// parent's cell calls rlm_query, and the bridge handler (standing for the loop's child run) opens a
// nested session, binds the child's context and runs the child's cells in it, then closes it and
// answers. What must hold: nothing passes between the parent and its children, output goes to the
// child's listeners, a child's time limit interrupts only the child's cell, and a child that ignores
// its interrupt costs the parent its process with a clear reason.
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BridgeCall, BridgeHandler, CellResult, ReplSession } from '../../../../src/core/repl/replTypes';
import { startSession } from './replTestKit';

/** A bridge whose rlm_query runs `child` in a session nested in `parent()`; llm_query echoes. */
function nestingBridge(parent: () => ReplSession, child: (nested: ReplSession, call: BridgeCall & { kind: 'rlm_query' }) => Promise<string>): BridgeHandler {
  return async (call) => {
    if (call.kind !== 'rlm_query') return call.prompts.map((p) => `echo:${p}`);
    const nested = parent().openNested?.(async (inner) => inner.prompts.map((p) => `inner:${p}`));
    if (!nested) return call.prompts.map(() => 'not nested');
    try {
      return [await child(nested, call)];
    } finally {
      await nested.close();
    }
  };
}

describe('a child run nested in its parent REPL session', () => {
  const sessions: ReplSession[] = [];
  after(async () => {
    for (const s of sessions) await s.close();
  });

  it('keeps variables, context and output apart; FINAL and errors stay the child’s; a second child starts clean', async () => {
    const childCells: CellResult[][] = [];
    const childOutput: string[] = [];
    const bridge = nestingBridge(
      () => session,
      async (nested, call) => {
        const stop = nested.onOutput((event) => childOutput.push(event.text));
        const metadata = await nested.bindContext({ kind: 'text', text: String(call.contexts[0]) });
        const cells = [];
        for (const code of [
          "print('parent var seen:', 'secret' in dir(), 'kid var seen:', 'kid_var' in dir(), 'context:', context)",
          "kid_var = 1\nprint(llm_query('from the kid'))",
          '1 / 0',
          "FINAL('kid answer ' + context)",
        ]) {
          cells.push(await nested.execute(code));
        }
        stop();
        childCells.push(cells);
        return `${metadata.totalChars}:${cells[3]?.final?.value}`;
      },
    );
    const session: ReplSession = await startSession({ bridge });
    sessions.push(session);
    await session.bindContext({ kind: 'text', text: 'the parent context' });
    const parentOutput: string[] = [];
    session.onOutput((event) => parentOutput.push(event.text));
    const r = await session.execute(
      ["secret = 'parent only'", "a = rlm_query('first', 'alpha')", "b = rlm_query('second', 'beta')", "print(a, b, 'kid_var' in dir(), context)"].join('\n'),
    );
    assert.equal(r.error, undefined, r.error?.traceback);
    assert.equal(r.stdout, '5:kid answer alpha 4:kid answer beta False the parent context\n');
    assert.equal(childCells.length, 2);
    for (const [i, cells] of childCells.entries()) {
      const context = i === 0 ? 'alpha' : 'beta';
      assert.equal(cells[0]?.stdout, `parent var seen: False kid var seen: False context: ${context}\n`, 'nothing of the parent or of the first child');
      assert.equal(cells[1]?.stdout, 'inner:from the kid\n', "the child's sub-call is answered by the child's bridge");
      assert.deepEqual(cells[1]?.newVariables, ['kid_var']);
      assert.equal(cells[2]?.error?.type, 'ZeroDivisionError');
      assert.match(cells[2]?.error?.traceback ?? '', /<cell-c\d+\.3>/);
      assert.deepEqual(cells[3]?.final, { value: `kid answer ${context}`, via: 'FINAL' });
    }
    assert.ok(childOutput.join('').includes('parent var seen: False'), "the child's live output reaches the child's listeners");
    assert.ok(!parentOutput.join('').includes('parent var seen'), "and not the parent's");
    // The parent's cell goes on after its children's FINALs, and its namespace is as it left it.
    const after = await session.execute("print(secret, a[:5], 'kid_var' in dir())");
    assert.equal(after.stdout, 'parent only 5:kid False\n');
  });

  it("a child's cell time limit interrupts only the child's cell; the child and its parent go on", async () => {
    const bridge = nestingBridge(
      () => session,
      async (nested) => {
        await nested.bindContext({ kind: 'text', text: 'x' });
        const slow = await nested.execute('while True:\n    pass', { timeoutMs: 300 });
        const next = await nested.execute("print('still here')");
        return `${slow.timedOut} ${slow.error?.type} ${next.stdout.trim()}`;
      },
    );
    const session: ReplSession = await startSession({ bridge, hardTimeoutGraceMs: 20_000 });
    sessions.push(session);
    await session.bindContext({ kind: 'text', text: 'p' });
    const r = await session.execute("r = rlm_query('slow', 'x')\nprint('parent:', r)", { timeoutMs: 30_000 });
    assert.equal(r.error, undefined, r.error?.traceback);
    assert.ok(!r.interrupted && !r.timedOut, 'the parent cell was not interrupted');
    assert.equal(r.stdout, 'parent: true Timeout still here\n');
  });

  it('a child cell that ignores its interrupt is killed at the hard timeout, and the parent cell fails with that reason', async () => {
    let childResult: CellResult | undefined;
    const bridge = nestingBridge(
      () => session,
      async (nested) => {
        await nested.bindContext({ kind: 'text', text: 'x' });
        childResult = await nested.execute('while True:\n    try:\n        while True:\n            pass\n    except KeyboardInterrupt:\n        pass', { timeoutMs: 200 });
        return 'unreachable';
      },
    );
    const session: ReplSession = await startSession({ bridge, hardTimeoutGraceMs: 500 });
    sessions.push(session);
    const r = await session.execute("rlm_query('stubborn', 'x')", { timeoutMs: 60_000 });
    assert.equal(r.restarted?.reason, 'hard-timeout', JSON.stringify(r));
    assert.match(r.restarted?.detail ?? '', /child run's cell ran past the hard timeout/);
    assert.equal(childResult?.restarted?.reason, 'hard-timeout');
    // The session starts a new process for the parent's next cell.
    const next = await session.execute("print('fresh')");
    assert.equal(next.stdout, 'fresh\n');
  });
});
