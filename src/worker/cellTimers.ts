// Nothing of a cell runs after it: every JS timer created while a cell runs (Emscripten implements
// setitimer(), alarm() and its async calls with setTimeout) is cleared when the cell ends. Installed in
// the worker before Pyodide loads, so Emscripten's glue, which looks the timer functions up on the global
// object at each call, goes through these wrappers.

type TimerKind = 'timeout' | 'interval' | 'immediate';

interface CellTimers {
  /** Timers created from now on belong to the cell. */
  begin(): void;
  /** Clears the cell's timers that are still pending; returns how many there were. */
  end(): number;
}

export function trackCellTimers(target: typeof globalThis = globalThis): CellTimers {
  const pending = new Map<unknown, TimerKind>();
  let inCell = false;
  const realSetTimeout = target.setTimeout;
  const realSetInterval = target.setInterval;
  const realSetImmediate = target.setImmediate;
  const realClearTimeout = target.clearTimeout;
  const realClearInterval = target.clearInterval;
  const realClearImmediate = target.clearImmediate;

  const wrap = (create: (...args: unknown[]) => unknown, kind: TimerKind) =>
    function (...args: unknown[]): unknown {
      if (!inCell) return create.apply(target, args);
      const [callback, ...rest] = args;
      const timer: { handle?: unknown } = {};
      // A one-shot timer that fires while the cell still runs is done: forget it, so end() counts
      // only what would have run later.
      const run = typeof callback === 'function' && kind !== 'interval'
        ? (...callArgs: unknown[]) => {
            pending.delete(timer.handle);
            return (callback as (...a: unknown[]) => unknown)(...callArgs);
          }
        : callback;
      timer.handle = create.apply(target, [run, ...rest]);
      pending.set(timer.handle, kind);
      return timer.handle;
    };

  const forget = <H>(clear: (handle: H) => void) =>
    function (this: unknown, handle: H): void {
      pending.delete(handle);
      clear.call(target, handle);
    };

  Object.assign(target, {
    setTimeout: wrap(realSetTimeout as (...args: unknown[]) => unknown, 'timeout'),
    setInterval: wrap(realSetInterval as (...args: unknown[]) => unknown, 'interval'),
    setImmediate: wrap(realSetImmediate as (...args: unknown[]) => unknown, 'immediate'),
    clearTimeout: forget(realClearTimeout as (handle: unknown) => void),
    clearInterval: forget(realClearInterval as (handle: unknown) => void),
    clearImmediate: forget(realClearImmediate as (handle: unknown) => void),
  });

  return {
    begin() {
      inCell = true;
      pending.clear();
    },
    end() {
      inCell = false;
      const count = pending.size;
      for (const [handle, kind] of pending) {
        if (kind === 'immediate') realClearImmediate.call(target, handle as NodeJS.Immediate);
        else if (kind === 'interval') realClearInterval.call(target, handle as NodeJS.Timeout);
        else realClearTimeout.call(target, handle as NodeJS.Timeout);
      }
      pending.clear();
      return count;
    },
  };
}
