// resetNamespace(): a warm process made clean for the next run, without a restart or a rebind, and a
// different context always starting from a clean namespace.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { ReplSession } from '../../../../src/core/repl/replTypes';
import { ReplClosedError } from '../../../../src/core/repl/replErrors';
import { startSession } from './replTestKit';

const CONTEXT = { kind: 'text' as const, text: 'the same context for every run' };

/** The value printed by a cell whose last line is an expression. */
async function value(session: ReplSession, code: string): Promise<string> {
  const r = await session.execute(code);
  assert.equal(r.error, undefined, `the cell failed: ${r.error?.message ?? ''}`);
  return r.stdout.trimEnd();
}

describe('REPL session: resetting the namespace between runs', () => {
  let session: ReplSession;
  before(async () => {
    session = await startSession();
    await session.bindContext(CONTEXT);
  });
  after(async () => {
    await session?.close();
  });

  it('drops every variable, function, import and builtin a run added, and resets _out and answer', async () => {
    const pid = session.startup?.pid;
    assert.ok(pid, 'the session reports its process id');
    const printed = await value(
      session,
      [
        'x = 1',
        'def helper():\n    return 2',
        'import json as j',
        'import builtins',
        'builtins.leaked_builtin = 3',
        'answer["content"] = "half done"',
        'print("some output")',
        'id(context)',
      ].join('\n'),
    );
    const contextId = printed.split('\n').at(-1) ?? '';
    assert.equal(await value(session, 'len(_out) > 0, answer["content"]'), "(True, 'half done')");
    const started = performance.now();
    await session.resetNamespace!();
    const resetMs = performance.now() - started;
    // Binding the same context again is skipped entirely: the very same str object stays bound.
    await session.bindContext(CONTEXT);
    const seen = await value(
      session,
      [
        'import builtins as _b',
        "[n for n in ('x', 'helper', 'j', 'builtins') if n in globals()], hasattr(_b, 'leaked_builtin'),",
      ].join('\n') + " len(_out), answer, str(id(context)) == '" + contextId + "', context",
    );
    assert.equal(seen, `([], False, 0, {'content': '', 'ready': False}, True, '${CONTEXT.text}')`);
    assert.equal(session.startup?.pid, pid, 'the same process serves the next run');
    assert.equal(session.startup?.restarts, 0);
    assert.ok(resetMs < 1000, `reset took ${resetMs} ms`);
    console.log(`# namespace reset: ${resetMs.toFixed(1)} ms`);
  });

  it('keeps the API working after a reset, including names a run had overwritten', async () => {
    await session.execute('peek = 5\nsearch = None');
    await session.resetNamespace!();
    assert.equal(await value(session, 'peek(0, 3), len(search("same")), FINAL is not None'), "('the', 1, True)");
  });

  it('re-binding the same context without a reset keeps the variables (follow-up questions)', async () => {
    await session.resetNamespace!();
    await session.execute('kept = 42');
    await session.bindContext(CONTEXT);
    assert.equal(await value(session, 'kept'), '42');
  });

  it('binding a different context starts from a clean namespace that sees only the new context', async () => {
    await session.execute('stale = "from the old context"');
    await session.bindContext({ kind: 'files', files: [{ path: 'new.txt', content: 'new content' }] });
    assert.equal(await value(session, "'stale' in globals(), 'kept' in globals(), dict(context)"), "(False, False, {'new.txt': 'new content'})");
  });

  it('refuses a reset after close', async () => {
    const other = await startSession();
    await other.close();
    await assert.rejects(other.resetNamespace!(), ReplClosedError);
  });
});
