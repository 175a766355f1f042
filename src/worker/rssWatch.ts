// The REPL's memory cap, second layer: the REPL process's main thread (which never runs Python) samples
// the whole process's resident memory and ends the process past a hard bound. It catches what the wasm
// heap cap (memoryCap.ts) cannot see: buffers JS code in the worker allocates outside the heap. The host
// then reports the cell as lost to 'out-of-memory' and starts a fresh REPL for the next one.

interface RssWatchOptions {
  /** Resident bytes past which the process is ended. */
  hardBytes: number;
  /** Called once, when the bound is passed; it must end the process. */
  onExceeded: (rssBytes: number) => void;
  intervalMs?: number;
  rss?: () => number;
}

/** The hard bound for a wasm heap cap: the heap, plus room for Node, V8 and Pyodide's JS side. */
export function hardRssBound(capBytes: number): number {
  return Math.round(capBytes * 1.25) + 512 * 1024 * 1024;
}

export function watchRss(options: RssWatchOptions): () => void {
  const rss = options.rss ?? (() => process.memoryUsage.rss());
  let fired = false;
  const timer = setInterval(() => {
    const now = rss();
    if (fired || now <= options.hardBytes) return;
    fired = true;
    options.onExceeded(now);
  }, options.intervalMs ?? 250);
  timer.unref();
  return () => clearInterval(timer);
}
