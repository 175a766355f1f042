// Nothing of Python runs between cells: outside the worker's own calls into Python (a cell, a bind, the
// start-up, the warm-up), this thread does not hold Python's GIL. Pyodide checks the GIL at every entry
// from JS into Python (calling, reading or iterating a PyProxy: `_check_gil`), and throws its NoGilError
// when it is not held. So a timer, interval, immediate, microtask, promise reaction or message handler
// that JavaScript in this worker armed during a cell (through whatever route: the timer functions, the
// `timers` module, Atomics.waitAsync, a MessagePort) cannot run Python once the cell has ended, whatever
// scheduler it used. The worker's own entries go through run(), which takes the GIL back for their length.
//
// Pyodide's finalizers (FinalizationRegistry callbacks that drop a collected PyProxy's reference) also
// enter Python; they run at any time, so a callback that comes while the gate is closed is queued and
// run at the next opening. This wrapper must be installed before Pyodide loads (it creates its registry
// at load time).

interface GilApi {
  _PyEval_SaveThread(): number;
  _PyEval_RestoreThread(threadState: number): void;
  _PyGILState_Ensure(): number;
  _PyGILState_Release(state: number): void;
}

export interface PythonGate {
  /** Runs fn holding the GIL (re-entrant). */
  run<T>(fn: () => T): T;
  /**
   * Runs fn holding the GIL from inside a cell's blocking call into the worker (the channel device's
   * write, during which CPython has released the GIL): a child run's ops nested in its parent's
   * rlm_query (issue 33). The GIL is given back as it was when fn ends.
   */
  nested<T>(fn: () => T): T;
  /** Releases the GIL: from now on only run() enters Python. */
  close(): void;
  readonly isOpen: boolean;
}

type Finalizer = (held: unknown) => void;

/** Defers finalizer callbacks that come while the gate is closed. Call before loadPyodide. */
export function deferFinalizers(target: typeof globalThis = globalThis): { attach(gate: { readonly isOpen: boolean }): void; drain(): void } {
  const Real = target.FinalizationRegistry;
  const queue: Array<[Finalizer, unknown]> = [];
  let gate: { readonly isOpen: boolean } | undefined;
  class GatedFinalizationRegistry<T> extends Real<T> {
    constructor(callback: (held: T) => void) {
      super((held: T) => {
        if (!gate || gate.isOpen) callback(held);
        else queue.push([callback as Finalizer, held]);
      });
    }
  }
  Object.defineProperty(target, 'FinalizationRegistry', { value: GatedFinalizationRegistry, writable: false, configurable: false });
  return {
    attach(g) {
      gate = g;
    },
    drain() {
      while (queue.length) {
        const [callback, held] = queue.shift()!;
        callback(held);
      }
    },
  };
}

export function createPythonGate(module: GilApi, finalizers?: { drain(): void }): PythonGate {
  let depth = 1; // the boot holds the GIL
  let threadState = 0;
  const save = module._PyEval_SaveThread.bind(module);
  const restore = module._PyEval_RestoreThread.bind(module);
  const gate: PythonGate = {
    get isOpen() {
      return depth > 0;
    },
    run<T>(fn: () => T): T {
      if (depth === 0) restore(threadState);
      depth++;
      try {
        return fn();
      } finally {
        if (depth === 1) finalizers?.drain();
        depth--;
        if (depth === 0) threadState = save();
      }
    },
    nested<T>(fn: () => T): T {
      if (depth === 0) throw new Error('Python is entered from a blocking call only while a cell runs');
      const state = module._PyGILState_Ensure();
      try {
        return fn();
      } finally {
        module._PyGILState_Release(state);
      }
    },
    close() {
      if (depth !== 1) throw new Error(`the Python gate closes only from the top level (depth ${depth})`);
      finalizers?.drain();
      depth = 0;
      threadState = save();
    },
  };
  return gate;
}

/** Pyodide's refusal of an entry into Python without the GIL. */
export function isNoGilError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { name?: unknown }).name === 'NoGilError';
}
