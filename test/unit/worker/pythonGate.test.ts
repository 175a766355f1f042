import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createPythonGate, deferFinalizers, isNoGilError } from '../../../src/worker/pythonGate';

/** A fake GIL: records whether it is held, as PyEval_SaveThread / RestoreThread would change it. */
function fakeGil(): { held: boolean; _PyEval_SaveThread(): number; _PyEval_RestoreThread(state: number): void; _PyGILState_Ensure(): number; _PyGILState_Release(state: number): void } {
  const gil = {
    held: true,
    // PyGILState_Ensure takes the GIL if this thread does not hold it, and says so in its state (1 here).
    _PyGILState_Ensure() {
      const took = gil.held ? 0 : 1;
      gil.held = true;
      return took;
    },
    _PyGILState_Release(state: number) {
      if (state === 1) gil.held = false;
    },
    _PyEval_SaveThread() {
      assert.equal(gil.held, true, 'saved while not held');
      gil.held = false;
      return 42;
    },
    _PyEval_RestoreThread(state: number) {
      assert.equal(state, 42);
      assert.equal(gil.held, false, 'restored while held');
      gil.held = true;
    },
  };
  return gil;
}

describe('createPythonGate', () => {
  it('holds the GIL only inside run(), re-entrantly, and releases it even when the call throws', () => {
    const gil = fakeGil();
    const gate = createPythonGate(gil);
    gate.close();
    assert.equal(gil.held, false);
    assert.equal(gate.isOpen, false);
    assert.equal(gate.run(() => gate.run(() => gil.held)), true);
    assert.equal(gil.held, false);
    assert.throws(() => gate.run(() => { throw new Error('cell failed'); }), /cell failed/);
    assert.equal(gil.held, false);
  });

  it('nested(): inside a cell whose blocking call released the GIL, takes it for the call and gives it back', () => {
    const gil = fakeGil();
    const gate = createPythonGate(gil);
    gate.close();
    assert.throws(() => gate.nested(() => undefined), /only while a cell runs/);
    const seen = gate.run(() => {
      gil.held = false; // CPython around the device's write(2)
      const inside = gate.nested(() => gil.held);
      const after = gil.held;
      gil.held = true;
      assert.throws(() => gate.nested(() => { throw new Error('child op failed'); }), /child op failed/);
      return [inside, after, gil.held];
    });
    assert.deepEqual(seen, [true, false, true]);
    assert.equal(gil.held, false);
  });
});

describe('deferFinalizers', () => {
  it('runs a finalizer that comes while the gate is closed only at the next opening, with the GIL held', () => {
    // The engine calls a registry's callback on garbage collection; the spy captures that callback so
    // the test can call it when it chooses.
    let collected: ((held: unknown) => void) | undefined;
    const Real = FinalizationRegistry;
    class Spy<T> extends Real<T> {
      constructor(callback: (held: T) => void) {
        super(callback);
        collected = callback as (held: unknown) => void;
      }
    }
    const target = { FinalizationRegistry: Spy } as unknown as typeof globalThis;
    const finalizers = deferFinalizers(target);
    const gil = fakeGil();
    const gate = createPythonGate(gil, finalizers);
    finalizers.attach(gate);
    const ran: Array<[unknown, boolean]> = [];
    new target.FinalizationRegistry((held) => ran.push([held, gil.held]));
    collected!('proxy 1');
    assert.deepEqual(ran, [['proxy 1', true]], 'run at once while the gate is open');
    gate.close();
    collected!('proxy 2');
    assert.deepEqual(ran.length, 1, 'not run while closed');
    gate.run(() => undefined);
    assert.deepEqual(ran, [['proxy 1', true], ['proxy 2', true]], 'run at the next opening, holding the GIL');
    assert.equal(gil.held, false);
    assert.throws(() => {
      (target as { FinalizationRegistry: unknown }).FinalizationRegistry = Real;
    }, TypeError);
  });

  it("recognises Pyodide's refusal", () => {
    assert.equal(isNoGilError(Object.assign(new Error('Attempted to use PyProxy when Python GIL not held'), { name: 'NoGilError' })), true);
    assert.equal(isNoGilError(new TypeError('x')), false);
  });
});
