// Builds the prelude API inside Pyodide, or finds the one a memory snapshot already holds. The API lives
// in a module of its own (sys.modules['_rlm_prelude']) so that it survives the snapshot and is found
// again after a restore; its key ties a snapshot to this exact prelude, warm-up and stdlib zip, so a
// snapshot taken by another build of the extension is refused (and replaced) instead of running a stale
// prelude or reading the zip at stale offsets.
import { createHash } from 'node:crypto';
import type { PyodideAPI } from 'pyodide';
import type { PyProxy } from 'pyodide/ffi';
import { PRELUDE_SOURCE } from './preludeSource';

/** Modules imported before a snapshot is taken, so that restored sessions start with them loaded. */
const WARM_IMPORTS = 'import re, json, ast, traceback, linecache, codecs, time, keyword, os, math, collections, itertools, functools';

/** `stdlibId`: stdlibIdentity() of the zip this Pyodide mounts. */
export const preludeKey = (stdlibId: string): string =>
  createHash('sha256').update(WARM_IMPORTS).update('\0').update(PRELUDE_SOURCE).update('\0').update(stdlibId).digest('hex').slice(0, 16);

export interface PreludeApi {
  bind(u8: Uint8Array, layoutJson: string): string;
  run_cell(code: string): string;
  recover(): void;
  warm(): void;
  reset(): void;
  attach(host: unknown, captureMaxChars: number): void;
}

/** Runs the warm imports, builds the API and warms it; holds no JS object, so a snapshot may follow. */
/** `key`: preludeKey() of this build, stored with the API so a restored snapshot can be checked. */
export function installPrelude(pyodide: PyodideAPI, key: string): void {
  pyodide.runPython(WARM_IMPORTS);
  const moduleDict = pyodide.runPython(
    "import sys, types\n_rlm_m = types.ModuleType('_rlm_prelude')\nsys.modules['_rlm_prelude'] = _rlm_m\n_rlm_m.__dict__",
    { globals: pyodide.toPy({}) as PyProxy },
  ) as PyProxy;
  try {
    pyodide.runPython(`${PRELUDE_SOURCE}\n_rlm_api = _rlm_install()\n_rlm_api.warm()\n_rlm_key = ${JSON.stringify(key)}\n`, { globals: moduleDict });
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
