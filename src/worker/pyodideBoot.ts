// Loads Pyodide inside the worker (from a memory snapshot when one is offered, cold otherwise) and
// applies the in-process hardening: no JS globals for `import js`, no `pyodide_js`, no network APIs,
// no `require` left on globalThis, and a `process.binding('constants')` shim for the permission model.
import * as fs from 'node:fs';
import * as os from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { loadPyodide, version as pyodideVersion } from 'pyodide';
import type { PyodideAPI } from 'pyodide';
import type { LoadMode, StartConfig } from '../core/repl/replProtocol';
import { join } from 'node:path';
import { installPrelude, preludeApi, preludeKey } from './preludeInstall';
import { stdlibIdentity } from './stdlibIdentity';
import type { PreludeApi } from './preludeInstall';
import type { PyProxy } from 'pyodide/ffi';

const NETWORK_GLOBALS = ['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource', 'Request', 'Response', 'Headers', 'FormData'];

export interface BootResult {
  pyodide: PyodideAPI;
  /** The prelude API, built in this load or found in the snapshot; not yet attached to a host. */
  api: PyProxy & PreludeApi;
  loadMode: LoadMode;
  snapshotError?: string;
  snapshot?: Uint8Array;
  version: string;
  /** What a snapshot of this build is cached under (SnapshotCache file name). */
  snapshotKey: string;
  networkApisRemoved: boolean;
  /** Checked after boot (probeJsBridge), from a snapshot as after a cold load. */
  jsGlobalsRestricted: boolean;
  pyodideJsUnregistered: boolean;
  notes: string[];
}

/**
 * What Python can actually reach of JavaScript once the hardening is done, checked rather than
 * assumed: `import js` must see none of the worker's globals, and `import pyodide_js` must fail.
 * Runs in its own namespace and leaves neither module imported.
 */
const JS_BRIDGE_PROBE = `
import sys, json
def _rlm_probe():
    try:
        import js
        reachable = [n for n in ('process', 'require', 'globalThis', 'fetch', 'setTimeout', 'Function', 'WebAssembly') if hasattr(js, n)]
    except ImportError:
        reachable = []
    try:
        import pyodide_js
        unregistered = False
    except ImportError:
        unregistered = True
    for name in [m for m in sys.modules if m in ('js', 'pyodide_js') or m.startswith(('js.', 'pyodide_js.'))]:
        sys.modules.pop(name, None)
    return json.dumps({'jsGlobalsRestricted': not reachable, 'pyodideJsUnregistered': unregistered})
_rlm_probe()
`;

export function probeJsBridge(pyodide: PyodideAPI): { jsGlobalsRestricted: boolean; pyodideJsUnregistered: boolean } {
  const globals = pyodide.toPy({}) as PyProxy;
  try {
    return JSON.parse(pyodide.runPython(JS_BRIDGE_PROBE, { globals }) as string) as { jsGlobalsRestricted: boolean; pyodideJsUnregistered: boolean };
  } finally {
    globals.destroy();
  }
}

/**
 * Emscripten implements os.system() with child_process.spawnSync. The permission model makes that
 * throw, and a JS exception there kills the interpreter; so refuse quietly instead: the command
 * "exits" with status 127 and nothing runs. Each worker has its own copy of the module, so this
 * touches only the REPL worker.
 */
export function disableChildProcesses(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the mutable CommonJS exports object is what Emscripten's require() returns
  const cp = require('node:child_process') as Record<string, unknown>;
  const refuse = (): never => {
    throw new Error('child processes are disabled in the RLM REPL');
  };
  for (const name of ['spawn', 'exec', 'execFile', 'fork', 'execSync', 'execFileSync']) cp[name] = refuse;
  cp.spawnSync = () => ({ status: 127, signal: null, pid: 0, output: [], stdout: null, stderr: null, error: new Error('disabled') });
}

/** Pyodide's NODEFS init calls process.binding('constants'), which the permission model denies. */
export function shimProcessBinding(): void {
  const proc = process as unknown as { binding(name: string): unknown };
  const original = proc.binding.bind(process);
  const shim = (name: string): unknown => {
    if (name === 'constants') return { fs: fs.constants, os: os.constants };
    return original(name);
  };
  Object.defineProperty(process, 'binding', { value: shim, configurable: true, writable: true });
}

export interface BootOptions {
  config: StartConfig;
  onStray: (stream: 'stdout' | 'stderr', text: string) => void;
  /** The bytes of config.snapshotPath (read by the caller, possibly ahead of time). */
  snapshotBytes?: () => Promise<Uint8Array>;
}

/**
 * V8 compiles wasm in the background by default, and the last of that work then holds this thread's
 * event loop for ~0.1 s after Pyodide has loaded (measured here: idle, not running JS). Compiling
 * synchronously costs ~55 ms inside the load instead, and the code runs just as fast. The flag is
 * process-wide, but only this worker compiles wasm; an unknown flag is ignored, never fatal.
 */
export function compileWasmSynchronously(): void {
  setFlagsFromString('--no-wasm-async-compilation');
}

export async function bootPyodide({ config, onStray, snapshotBytes }: BootOptions): Promise<BootResult> {
  compileWasmSynchronously();
  const buildKey = preludeKey(stdlibIdentity(join(config.indexURL, 'python_stdlib.zip')));
  // Names the snapshot file, so a snapshot of another build is refused before it is loaded.
  const snapshotKey = `${pyodideVersion}+${buildKey}`;
  // `import js` sees only this empty object, so Python cannot reach `process`, `require` or timers.
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
      api = preludeApi(pyodide, buildKey);
      loadMode = 'snapshot';
    } catch (err) {
      snapshotError = err instanceof Error ? err.message : String(err);
      pyodide = undefined;
      loadMode = 'cold-snapshot-failed';
    }
  }
  let snapshot: Uint8Array | undefined;
  if (!pyodide) {
    const makeSnapshot = config.makeSnapshot || loadMode === 'cold-snapshot-failed';
    pyodide = await loadPyodide({ ...base, _makeSnapshot: makeSnapshot });
    // The prelude is built before the snapshot, so that a start from the snapshot need not compile it.
    installPrelude(pyodide, buildKey);
    if (makeSnapshot) {
      try {
        snapshot = pyodide.makeMemorySnapshot();
      } catch (err) {
        snapshotError = `making a snapshot failed: ${err instanceof Error ? err.message : String(err)}`;
      }
    }
  }
  api ??= preludeApi(pyodide, buildKey);
  const notes: string[] = [];
  pyodide.unregisterJsModule('pyodide_js');
  // `pyodide_js._api` stays in sys.modules after unregistering and exposes Pyodide's internal API object.
  pyodide.runPython(
    "import sys\nfor _m in [m for m in sys.modules if m in ('js', 'pyodide_js') or m.startswith(('js.', 'pyodide_js.'))]:\n    sys.modules.pop(_m, None)",
    // Its own globals: the model's namespace was fixed when the prelude took its baseline.
    { globals: pyodide.toPy({}) as PyProxy },
  );
  const bridge = probeJsBridge(pyodide);
  if (!bridge.jsGlobalsRestricted) notes.push('`import js` still reaches JavaScript globals');
  if (!bridge.pyodideJsUnregistered) notes.push('`import pyodide_js` still works');
  const g = globalThis as Record<string, unknown>;
  // Pyodide's Node init leaves a `require` on globalThis that hands out child_process and ws.
  delete g.require;
  let networkApisRemoved = true;
  for (const name of NETWORK_GLOBALS) {
    try {
      delete g[name];
      if (g[name] !== undefined) networkApisRemoved = false;
    } catch {
      networkApisRemoved = false;
    }
  }
  if (!networkApisRemoved) notes.push('some network globals could not be removed from the worker');
  return { pyodide, api, loadMode, snapshotError, snapshot, version: pyodideVersion, snapshotKey, networkApisRemoved, ...bridge, notes };
}
