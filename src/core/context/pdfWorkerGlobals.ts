// Imported by the PDF worker before pdf.js (imports run in order): pdf.js's rendering code builds one
// DOMMatrix when it loads, and Node has none (pdf.js would take it from an optional native canvas
// package, which is not shipped). Text extraction never renders, so an empty class is enough for the
// module to load; any rendering call on it would fail loudly (no methods), never draw wrongly.
const scope = globalThis as { DOMMatrix?: unknown };
if (scope.DOMMatrix === undefined) {
  scope.DOMMatrix = class DOMMatrixUnavailable {};
}

// pdf.js warns through the console about what it does not need here (a canvas). Anything this thread
// writes travels to the host as a stream, and a stream with data to read (or read from) holds the host's
// event loop: `rlm ask design.pdf` then waited for the idle close, 30 s after its answer. Nothing is
// written, so the host never reads this thread's output and the unref'd thread never holds it.
const silent = (): void => undefined;
for (const name of ['log', 'info', 'warn', 'error', 'debug', 'trace', 'dir', 'table'] as const) console[name] = silent;
process.stdout.write = (() => true) as typeof process.stdout.write;
process.stderr.write = (() => true) as typeof process.stderr.write;
