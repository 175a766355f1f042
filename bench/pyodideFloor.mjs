// Pyodide's own floor, for the CPU and start-up figures of `rlm ask`: a bare Node process that restores
// Pyodide from the very snapshot `rlm` made, runs the two statements of the bench's two-turn run, and
// exits. No sandbox, no worker thread, no lockdown, no probes, no host, no model: what any REPL that
// gives each run a fresh Pyodide pays at least. Same V8 flags as the REPL process (--single-threaded
// is passed by the bench; wasm is compiled and tiered up here as in src/worker/pyodideBoot.ts).
// Usage: node --single-threaded bench/pyodideFloor.mjs <dist/pyodide/> <pyodide-*.snapshot>
// Prints one JSON line: { restoreMs, cellsMs, wallMs } (wall from this process's start).
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';

const [indexURL, snapshotPath] = process.argv.slice(2);
if (!indexURL || !snapshotPath) {
  console.error('usage: node --single-threaded bench/pyodideFloor.mjs <dist/pyodide/> <pyodide-*.snapshot>');
  process.exit(2);
}
// The same wasm flags as src/worker/pyodideBoot.ts (tuneWasmCompilation).
for (const flag of ['--no-wasm-async-compilation', '--wasm-tiering-budget=9000000']) setFlagsFromString(flag);
const { loadPyodide } = await import('pyodide');
const started = performance.now();
const pyodide = await loadPyodide({ indexURL: indexURL.endsWith('/') ? indexURL : `${indexURL}/`, _loadSnapshot: readFileSync(snapshotPath) });
const restored = performance.now();
pyodide.runPython('context = "x" * 1000\nn = len(context)');
pyodide.runPython('str(n)');
const done = performance.now();
process.stdout.write(`${JSON.stringify({ restoreMs: restored - started, cellsMs: done - restored, wallMs: done })}\n`);
process.exit(0);
