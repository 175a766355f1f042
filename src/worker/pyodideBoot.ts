// Loads Pyodide inside the worker, from a memory snapshot when one is offered and cold otherwise, with no
// JS globals for `import js` and the REPL channel device in its file system. A cold load also disables
// the dangerous built-in modules and builds the prelude before the snapshot is taken, so a restored
// process starts with both. Cutting Python off from JS (isolation.py) happens after this, in either case.
import { setFlagsFromString } from 'node:v8';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadPyodide, version as pyodideVersion } from 'pyodide';
import type { PyodideAPI } from 'pyodide';
import type { PyProxy } from 'pyodide/ffi';
import type { LoadMode, StartConfig } from '../core/repl/replProtocol';
import { disableBuiltinModules } from './builtinModules';
import type { BuiltinPatchResult, WasmMemoryAccess } from './builtinModules';
import type { PythonStrApi } from './textTarget';
import { installPrelude, preludeApi, preludeKey } from './preludeInstall';
import type { PreludeApi } from './preludeInstall';
import type { EmscriptenFs, PythonChannel } from './pythonChannel';
import { stdlibIdentity } from './stdlibIdentity';
import { buildIdentity } from './buildIdentity';
import { trimTrailingZeros } from './snapshotTrim';

interface BootResult {
  pyodide: PyodideAPI;
  /** The prelude API, built in this load or found in the snapshot. */
  api: PyProxy & PreludeApi;
  loadMode: LoadMode;
  snapshotError?: string;
  snapshot?: Uint8Array;
  version: string;
  /** What a snapshot of this build is cached under (SnapshotCache file name). */
  snapshotKey: string;
  /** Set on a cold load; a restored snapshot carries the patch in its memory. */
  builtinPatch?: BuiltinPatchResult;
}

interface BootOptions {
  config: StartConfig;
  channel: PythonChannel;
  /** Output written past the prelude's capture (sys.__stdout__, os.write(1, ...)). */
  onStray: (stream: 'stdout' | 'stderr', text: string) => void;
  /** The bytes of the snapshot (read by the child's main thread, possibly ahead of time). */
  snapshotBytes?: () => Promise<Uint8Array>;
}

/**
 * V8 compiles wasm in the background by default, and the last of that work then holds this thread's
 * event loop for ~0.1 s after Pyodide has loaded (measured here: idle, not running JS). Compiling
 * synchronously costs ~55 ms inside the load instead, and the code runs just as fast.
 *
 * The tiering budget is how much a wasm function runs on the baseline compiler's code before V8
 * optimises it. At V8's default (1.8 M), in this process (--single-threaded) the start-up's one-off
 * code was optimised too, and a run's first heavy cell stalled while the Python interpreter's main
 * loop was: a 2 M-iteration Python loop took 617-805 ms as a REPL's first cell against 374-549 ms
 * after. At 9 M, measured alternately: that loop 355-429 ms first and after, calls 5-10 % faster, a
 * regex over 50 MB the same, start-up the same, and a whole two-turn `rlm ask` 9 % less CPU.
 * The flags are process-wide, but only this worker compiles wasm; an unknown flag is ignored, never fatal.
 */
const WASM_FLAGS = ['--no-wasm-async-compilation', '--wasm-tiering-budget=9000000'] as const;

function tuneWasmCompilation(): void {
  for (const flag of WASM_FLAGS) setFlagsFromString(flag);
}

/** The Emscripten module behind the public API: its heap (for the inittab patch) and file system. */
function internals(pyodide: PyodideAPI): { mem: WasmMemoryAccess; fs: EmscriptenFs } {
  const module = (pyodide as unknown as { _module: WasmMemoryAccess & { FS: EmscriptenFs } })._module;
  return { mem: module, fs: module.FS };
}

/** The C API calls a text target needs (textTarget.ts), or undefined when this build lacks one. */
export function pythonStrApi(pyodide: PyodideAPI): PythonStrApi | undefined {
  const module = (pyodide as unknown as { _module: Partial<Record<keyof PythonStrApi, unknown>> })._module;
  const calls: Array<keyof PythonStrApi> = ['_PyUnicode_New', '_PyUnicode_Data', '_Py_DecRef', '_PyErr_Clear', 'pyproxy_new'];
  return calls.every((name) => typeof module[name] === 'function') && module.HEAPU8 instanceof Uint8Array ? (module as unknown as PythonStrApi) : undefined;
}

export async function bootPyodide({ config, channel, onStray, snapshotBytes }: BootOptions): Promise<BootResult> {
  tuneWasmCompilation();
  const buildKey = preludeKey(stdlibIdentity(join(config.indexURL, 'python_stdlib.zip')));
  // Names the snapshot file, so a snapshot of another build is refused before it is loaded: the
  // Python sources and stdlib (buildKey), and the worker bundle and Pyodide's files (buildIdentity).
  const snapshotKey = snapshotKeyFor(pyodideVersion, buildKey, buildIdentity({ workerFile: __filename, pyodideDir: fileURLToPathOrPath(config.indexURL) }));
  // `import js` would see only this empty object; isolation.py then removes the module altogether.
  const jsglobals = Object.create(null) as object;
  const base = {
    indexURL: config.indexURL,
    jsglobals,
    env: { HOME: '/home/pyodide' },
    stdout: (text: string) => onStray('stdout', text + '\n'),
    stderr: (text: string) => onStray('stderr', text + '\n'),
  };
  let pyodide: PyodideAPI | undefined;
  let api: (PyProxy & PreludeApi) | undefined;
  let loadMode: LoadMode = 'cold';
  let snapshotError: string | undefined;
  if (config.snapshotPath && snapshotBytes) {
    try {
      const expected = /pyodide-([^/\\]+)\.snapshot$/.exec(config.snapshotPath)?.[1];
      if (expected !== snapshotKey) throw new Error(`the snapshot is for ${expected ?? '?'}, this REPL needs ${snapshotKey} (Pyodide version + prelude and stdlib key)`);
      pyodide = await loadPyodide({ ...base, _loadSnapshot: await snapshotBytes() });
      channel.install(internals(pyodide).fs);
      api = preludeApi(pyodide, buildKey);
      loadMode = 'snapshot';
    } catch (err) {
      snapshotError = err instanceof Error ? err.message : String(err);
      pyodide = undefined;
      loadMode = 'cold-snapshot-failed';
    }
  }
  let snapshot: Uint8Array | undefined;
  let builtinPatch: BuiltinPatchResult | undefined;
  if (!pyodide) {
    const makeSnapshot = config.makeSnapshot || loadMode === 'cold-snapshot-failed';
    pyodide = await loadPyodide({ ...base, _makeSnapshot: makeSnapshot });
    const { mem, fs } = internals(pyodide);
    builtinPatch = disableBuiltinModules(mem);
    channel.install(fs);
    // The prelude is built before the snapshot, so that a start from the snapshot need not compile it.
    installPrelude(pyodide, buildKey);
    if (makeSnapshot) {
      try {
        snapshot = trimTrailingZeros(pyodide.makeMemorySnapshot());
      } catch (err) {
        snapshotError = `making a snapshot failed: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
  }
  api ??= preludeApi(pyodide, buildKey);
  return { pyodide, api, loadMode, snapshotError, snapshot, version: pyodideVersion, snapshotKey, builtinPatch };
}

/** The snapshot cache's key for a build (SnapshotCache checks its characters). */
export function snapshotKeyFor(pyodideVersion: string, sourcesKey: string, bundleKey: string): string {
  return `${pyodideVersion}+${sourcesKey}.${bundleKey}`;
}

/** indexURL is a folder path ending in a slash (replSession.ts); a file: URL is accepted too. */
function fileURLToPathOrPath(indexURL: string): string {
  return indexURL.startsWith('file:') ? fileURLToPath(indexURL) : indexURL;
}
