// Pyodide's interrupt check (pyodide.asm.mjs, _Py_CheckEmscriptenSignals_Helper) reads the buffer's first
// cell, then writes 0 to it. An interrupt stored by another thread between the two was wiped. These tests
// replay that interleaving step by step, on a plain Int32Array (the loss) and on the view the worker
// gives Pyodide (atomicInterrupts.ts), and check that the helper in the installed Pyodide still has the
// shape the view is made for.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { atomicInterruptView } from '../../../src/worker/atomicInterrupts';

const SIGINT = 2;

/** Pyodide's helper, step by step: `read`, then (after `between`) the clear. */
function checkSignals(buffer: Int32Array, between: () => void = () => undefined): number {
  const result = buffer[0]!;
  between();
  buffer[0] = 0;
  return result;
}

describe('interrupt buffer as Pyodide reads it', () => {
  it('a plain buffer loses an interrupt stored between the read and the clear', () => {
    const shared = new Int32Array(new SharedArrayBuffer(4));
    assert.equal(checkSignals(shared, () => Atomics.store(shared, 0, SIGINT)), 0);
    assert.equal(checkSignals(shared), 0, 'the interrupt is gone');
  });

  it('the atomic view keeps it for the next check, and each interrupt is taken once', () => {
    const shared = new Int32Array(new SharedArrayBuffer(4));
    const view = atomicInterruptView(shared);
    assert.equal(checkSignals(view, () => Atomics.store(shared, 0, SIGINT)), 0);
    assert.equal(checkSignals(view), SIGINT, 'taken at the next check');
    assert.equal(checkSignals(view), 0, 'and only once');
    Atomics.store(shared, 0, SIGINT);
    assert.equal(checkSignals(view), SIGINT);
    assert.equal(Atomics.load(shared, 0), 0, 'cleared by the read');
  });

  it('a non-zero write through the view is stored', () => {
    const shared = new Int32Array(new SharedArrayBuffer(4));
    atomicInterruptView(shared)[0] = SIGINT;
    assert.equal(Atomics.load(shared, 0), SIGINT);
  });

  it("the installed Pyodide's check still reads the first cell and then clears it, the shape the view is for", () => {
    const source = readFileSync(require.resolve('pyodide/pyodide.asm.mjs'), 'utf8');
    const helper = /function _Py_CheckEmscriptenSignals_Helper\(\)\{(.*?)\}_Py_CheckEmscriptenSignals_Helper\.sig/.exec(source)?.[1];
    assert.ok(helper, 'the helper was not found: check atomicInterrupts.ts against this Pyodide');
    assert.match(helper, /let result=Module\.Py_EmscriptenSignalBuffer\[0\];Module\.Py_EmscriptenSignalBuffer\[0\]=0;return result/);
  });
});
