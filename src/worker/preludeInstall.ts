// Builds the prelude API inside Pyodide, or finds the one a memory snapshot already holds. The API lives
// in modules of its own (sys.modules['_rlm_prelude'] and the parts it assembles, PYTHON_MODULES) so that
// it survives the snapshot and is found again after a restore; its key ties a snapshot to this exact prelude, warm-up and stdlib zip, so a
// snapshot taken by another build of the extension is refused (and replaced) instead of running a stale
// prelude or reading the zip at stale offsets.
import { createHash } from 'node:crypto';
import type { PyodideAPI } from 'pyodide';
import type { PyProxy } from 'pyodide/ffi';
import { DISABLED_BUILTINS } from './builtinModules';
import CHANNEL_PY from './python/channel.py';
import OUTPUT_PY from './python/output.py';
import CONTEXT_VIEWS_PY from './python/context_views.py';
import SESSION_PY from './python/session.py';
import MODEL_API_PY from './python/model_api.py';
import BINDING_PY from './python/binding.py';
import CELL_RUNNER_PY from './python/cell_runner.py';
import PRELUDE_PY from './python/prelude.py';
import ISOLATION_PY from './python/isolation.py';

/**
 * The prelude's parts, each loaded as a module of that name (sys.modules) before the next, in the
 * order they import each other; a cell can import one too (tests do, to exercise a part alone).
 */
const PYTHON_MODULES: readonly (readonly [name: string, file: string, source: string])[] = [
  ['_rlm_channel', 'channel.py', CHANNEL_PY],
  ['_rlm_output', 'output.py', OUTPUT_PY],
  ['_rlm_context_views', 'context_views.py', CONTEXT_VIEWS_PY],
  ['_rlm_session', 'session.py', SESSION_PY],
  ['_rlm_model_api', 'model_api.py', MODEL_API_PY],
  ['_rlm_binding', 'binding.py', BINDING_PY],
  ['_rlm_cell_runner', 'cell_runner.py', CELL_RUNNER_PY],
];

/** Both run in the prelude's module namespace: the API assembled, and the layer-1 cut and probe. */
const PRELUDE_SOURCE = [PRELUDE_PY, ISOLATION_PY].map((source) => `${source}\n`).join('');
const PYTHON_SOURCES = [...PYTHON_MODULES.map(([, , source]) => source), PRELUDE_PY, ISOLATION_PY];

/** Modules imported before a snapshot is taken, so that restored sessions start with them loaded. */
const WARM_IMPORTS = 'import re, json, ast, traceback, linecache, codecs, time, keyword, os, math, collections, itertools, functools';

/** Run after the prelude's source: builds and warms the API (the key is stored after it). */
const BUILD_API =
  'import json\n_rlm_api = _rlm_install()\n_rlm_api.lock_down = _iso_lock_down\n_rlm_api.cut_generic = _iso_cut_generic\n_iso_prepare()\n' +
  '_rlm_api.probe = lambda names: _iso_probe(json.loads(names))\n_rlm_api.type_records = _iso_type_records\n' +
  '_rlm_api.make_types_inert = _iso_make_types_inert\n_rlm_api.warm()\n';

/**
 * Everything that shapes a snapshot's memory, and so goes into its key: the Python sources as the
 * bundle holds them, the code run around them, and the built-ins patched out before the snapshot.
 */
export function snapshotSources(): string[] {
  return [WARM_IMPORTS, ...PYTHON_SOURCES, BUILD_API, DISABLED_BUILTINS.join(',')];
}

/** `stdlibId`: stdlibIdentity() of the zip this Pyodide mounts. */
export function preludeKey(stdlibId: string): string {
  const hash = createHash('sha256');
  for (const part of [...snapshotSources(), stdlibId]) hash.update(part).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** A child run's API (prelude.py, Api.open_child): what the worker calls for one nested child. */
export interface ChildPreludeApi {
  bind_begin(): void;
  bind_feed(byteLength: number, opened?: boolean): string;
  run_cell(code: string): string;
  recover(): void;
}

export interface PreludeApi extends ChildPreludeApi {
  /** A child run's session in this interpreter, instance `n` (issue 33): its own namespace and context. */
  open_child(n: number): PyProxy & ChildPreludeApi;
  /** Ends child `n`: its namespace is emptied. */
  close_child(n: number): void;
  /** Starts a bind: the namespace is cleared and the frame parser reset. */
  bind_begin(): void;
  /**
   * Takes the next `byteLength` bytes of the frame stream from the channel device: the summary JSON at
   * the end, '' for more, 'N<size>' for a text target of that size (answer with `opened`), '+' when the
   * text target is full (bind_adopt it, then feed what is left).
   */
  bind_feed(byteLength: number, opened?: boolean): string;
  /** The full text target (a PyProxy of the str the worker filled), kept as the entry's text. */
  bind_adopt(text: PyProxy): void;
  run_cell(code: string): string;
  recover(): void;
  warm(): void;
  /** The next step of the hot-path warm-up run while no cell has come yet; false when done. */
  warm_paths(): boolean;
  /** Display limit per stream and cell; `_out` limits per cell and in all (docs/rlm-contract.md). */
  attach(captureMaxChars: number, outCellChars?: number, outTotalChars?: number): void;
  /** isolation.py: cuts Python off from JS by emptying the holders Pyodide is known to leave. */
  lock_down(): string;
  /** isolation.py: the slow fallback that searches the whole object graph; returns a JSON report. */
  cut_generic(): string;
  /** isolation.py: [address, tp_flags, tp_base address][] of each of Pyodide's types (typeFlags.ts). */
  type_records(): string;
  /** isolation.py: strips Pyodide's types of every method and constructor; a JSON report. */
  make_types_inert(): string;
  /** isolation.py: layer 1's probes as JSON, [name, held, detail][]. */
  probe(disabledBuiltins: string): string;
}

/** Runs the warm imports, builds the API and warms it; holds no JS object, so a snapshot may follow. */
/** `key`: preludeKey() of this build, stored with the API so a restored snapshot can be checked. */
export function installPrelude(pyodide: PyodideAPI, key: string): void {
  pyodide.runPython(WARM_IMPORTS);
  for (const [name, file, source] of PYTHON_MODULES) runAsModule(pyodide, name, source, `<rlm ${file}>`);
  runAsModule(pyodide, '_rlm_prelude', `${PRELUDE_SOURCE}\n${BUILD_API}_rlm_key = ${JSON.stringify(key)}\n`, '<rlm prelude.py>');
}

/** Runs `source` as the body of a new module registered as sys.modules[name]. */
function runAsModule(pyodide: PyodideAPI, name: string, source: string, filename: string): void {
  const moduleDict = pyodide.runPython(
    'import sys, types\n_rlm_m = types.ModuleType(NAME)\nsys.modules[NAME] = _rlm_m\n_rlm_m.__dict__',
    { globals: pyodide.toPy({ NAME: name }) as PyProxy },
  ) as PyProxy;
  try {
    pyodide.runPython(source, { globals: moduleDict, filename });
  } finally {
    moduleDict.destroy();
  }
}

/** The API built by installPrelude, in this process or in the snapshot it was restored from. */
export function preludeApi(pyodide: PyodideAPI, key: string): PyProxy & PreludeApi {
  const api = pyodide.runPython(
    "import sys\n_rlm_m = sys.modules.get('_rlm_prelude')\n_rlm_m._rlm_api if _rlm_m is not None and getattr(_rlm_m, '_rlm_key', None) == KEY else None",
    { globals: pyodide.toPy({ KEY: key }) as PyProxy },
  ) as (PyProxy & PreludeApi) | undefined;
  if (!api) throw new Error('the snapshot was made by a different build of the REPL (prelude or standard library)');
  return api;
}
