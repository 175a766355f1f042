// The host's own watch on the memory a PDF parse takes. The worker's heap limit (resourceLimits) counts
// only V8's heap; the buffers pdf.js inflates streams into live outside it, so a 1 MB PDF whose content
// stream inflates to gigabytes grew the host process past 1 GB with the heap limit intact. This layer
// does not depend on pdf.js or the worker at all: while an answer is awaited, the whole process's
// resident memory is sampled, and growth past the limit since the request was sent ends the worker.
// It is process-wide, so other work of the host at the same moment counts too: a false alarm costs a
// clear error on one PDF (asked again, it is read again), never the host.

/** How often the process's memory is read while a PDF answer is awaited. Reading it costs microseconds. */
const SAMPLE_MS = 25;

interface MemoryWatchOptions {
  /** Growth of the process's resident memory allowed since the watch started, in MB. */
  limitMb: number;
  /** Called once, when the growth passes the limit. */
  onOver: (grownMb: number) => void;
  /** The process's resident memory in bytes (tests inject a fake). */
  rss?: () => number;
  sampleMs?: number;
}

/** Starts watching; returns the function that stops it. */
export function watchHostMemory(options: MemoryWatchOptions): () => void {
  const rss = options.rss ?? (() => process.memoryUsage.rss());
  const baseline = rss();
  const limit = options.limitMb * 1024 * 1024;
  const timer = setInterval(() => {
    const grown = rss() - baseline;
    if (grown <= limit) return;
    clearInterval(timer);
    options.onOver(Math.round(grown / (1024 * 1024)));
  }, options.sampleMs ?? SAMPLE_MS);
  // The watch never keeps a process alive by itself: the answer it guards has its own timer.
  timer.unref();
  return () => clearInterval(timer);
}
