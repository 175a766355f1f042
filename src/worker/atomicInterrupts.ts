// Pyodide looks for a pending interrupt by reading its buffer's first cell and then writing 0 to it, as
// two separate steps (`_Py_CheckEmscriptenSignals_Helper` in pyodide.asm.mjs), every few dozen ticks of
// the eval loop. The REPL process writes interrupts from another thread, and one that landed between
// those two steps was wiped: about 1 soft timeout in 250 over a busy loop (3 of 800 measured). The cell
// was then killed at the hard timeout, taking the session's variables with it. Pyodide gets this view
// instead: reading it takes the value and clears the cell in one atomic exchange; writing 0 does nothing.
export function atomicInterruptView(buffer: Int32Array): Int32Array {
  const view = {
    get 0(): number {
      return Atomics.exchange(buffer, 0, 0);
    },
    set 0(value: number) {
      // Pyodide only clears what it has just read, which the exchange already did.
      if (value !== 0) Atomics.store(buffer, 0, value);
    },
  };
  return view as unknown as Int32Array;
}
