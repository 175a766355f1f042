// Every host call into the REPL has a time limit, and a REPL that misses it is replaced; what the host
// keeps of a cell is bounded whatever the REPL reports. Failures are recorded as what they were.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { CellTracker } from '../../../../src/core/repl/cellTracker';
import { ReplHungError } from '../../../../src/core/repl/replErrors';
import type { ReplSession } from '../../../../src/core/repl/replTypes';
import { startSession } from './replTestKit';

describe('REPL session: binding has a time limit', () => {
  let session: ReplSession;
  before(async () => {
    session = await startSession({ bindTimeoutMs: 1500 });
  });
  after(async () => {
    await session?.close();
  });

  it('a bind that never answers is a ReplHungError, the process is replaced, and the next bind works', async () => {
    await session.bindContext({ kind: 'text', text: 'first' });
    const pid = session.startup?.pid;
    // A follow-up's cell can leave Python in a state where binding spins (here: memoryview never returns).
    const poisoned = await session.execute('import builtins\ndef _spin(*a, **k):\n    while True:\n        pass\nbuiltins.memoryview = _spin');
    assert.equal(poisoned.error, undefined);
    await assert.rejects(session.bindContext({ kind: 'text', text: 'second' }), (error: unknown) => error instanceof ReplHungError && error.operation === 'bind' && error.limitMs >= 1500);
    const bound = await session.bindContext({ kind: 'text', text: 'third' });
    assert.equal(bound.totalChars, 5);
    assert.notEqual(session.startup?.pid, pid, 'a new REPL process answered');
    const r = await session.execute('context');
    assert.equal(r.stdout, "'third'\n");
  });
});

describe('CellTracker: what the host keeps of a cell is bounded', () => {
  it('keeps at most the capture limit of the worker\'s text, whatever the worker claims', () => {
    const cell = new CellTracker(1, 100, 1000);
    cell.finish({ stdout: 'x'.repeat(10_000), stderr: 'y'.repeat(10_000), stdoutChars: 10_000, stderrChars: 10_000, newVariables: [], outIndex: 1, interrupted: false });
    return cell.done.then((r) => {
      assert.equal(r.stdout.length, 100);
      assert.equal(r.stderr.length, 100);
      assert.equal(r.stdoutChars, 10_000, 'the true length is still reported');
    });
  });

  it('keeps at most the capture limit of streamed output', () => {
    const cell = new CellTracker(1, 100, 1000);
    for (let i = 0; i < 50; i++) cell.addOutput('stdout', 'z'.repeat(1000));
    cell.lose({ reason: 'crash', detail: 'test' });
    return cell.done.then((r) => {
      assert.equal(r.stdout.length, 100);
      assert.equal(r.stdoutChars, 50_000);
    });
  });
});
