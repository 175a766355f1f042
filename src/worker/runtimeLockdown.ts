// Sandbox layer 2: whatever JavaScript runs in the REPL process (a future leak through layer 1, a bug in
// Pyodide), it can load no network or process module and cannot reach V8's stack-trace API. Applied in
// the worker before Pyodide loads, with the runtime's own mechanisms:
// - CommonJS: Module._load (every require and createRequire goes through it) and
//   process.getBuiltinModule are replaced by allow-list checks (lockdownPolicy.ts) and frozen;
// - import(): an ESM resolve hook registered in this thread (esmGuardHooks.ts);
// - process.binding/_linkedBinding/dlopen/kill: refused (the permission model does not stop kill);
// - Error.prepareStackTrace/captureStackTrace and the global Error binding: frozen, so no code can be
//   handed V8 CallSites (the route from a JS error to the wasm instance);
// - fetch, WebSocket and friends: removed from the global object.
// Freezing makes each replacement permanent: code that later holds `module` or `process` cannot put
// the originals back, because it never sees them.
import * as fs from 'node:fs';
import * as os from 'node:os';
import { createRequire, isBuiltin, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { sealFileSystem } from './fileSystemSeal';
import { decideBuiltin, ModuleDeniedError } from './lockdownPolicy';
import type { LockdownPhase } from './lockdownPolicy';

const NETWORK_GLOBALS = ['fetch', 'WebSocket', 'XMLHttpRequest', 'EventSource', 'Request', 'Response', 'Headers', 'FormData', 'WebSocketStream'];

export interface RuntimeLockdown {
  readonly phase: LockdownPhase;
  /** No more boot-only modules (module, vm, v8, worker_threads). Irreversible. */
  enterCellPhase(): void;
  /** What could not be applied, in words; empty when everything holds. */
  readonly problems: string[];
}

interface LockdownOptions {
  /** The ESM resolve hooks bundle (dist/esmGuardHooks.mjs); absent: import() is not guarded (reported). */
  esmHooksPath?: string;
  /** Directory whose files import() may load (Pyodide's runtime). */
  importableDir: string;
}

function refuse(name: string): () => never {
  return () => {
    throw new ModuleDeniedError(name);
  };
}

function freeze(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: false, configurable: false, enumerable: false });
}

/** Layer 2's stack-trace part alone; also applied in the REPL process's main thread. */
export function freezeStackTraceApi(): void {
  const error = Error as ErrorConstructor & { prepareStackTrace?: unknown };
  freeze(error, 'prepareStackTrace', undefined);
  freeze(error, 'captureStackTrace', error.captureStackTrace);
  // Node formats stacks with `globalThis.Error.prepareStackTrace`: a replaced global Error would do.
  freeze(globalThis, 'Error', error);
}

/**
 * Stubs for the modules Pyodide loads but must not get: child_process (nothing runs; spawnSync "exits"
 * 127 as Emscripten expects) and tty (only isatty is used; its streams are network sockets).
 */
function stubFor(request: string): object {
  const name = request.replace(/^node:/, '');
  return name === 'tty' ? TTY_STUB : name === 'ws' ? WS_STUB : CHILD_PROCESS_STUB;
}

const TTY_STUB = Object.freeze({ isatty: () => false });

/**
 * Emscripten's sockets open WebSockets through the `ws` package in Node. This stand-in refuses, with an
 * error shaped like Emscripten's own errno errors, so Python gets an OSError instead of a crash.
 */
function refusedSocket(): never {
  throw Object.assign(new Error('the RLM sandbox has no network'), { name: 'ErrnoError', errno: 23 /* EHOSTUNREACH */ });
}
const WS_STUB = Object.freeze(Object.assign(function WebSocket() {
  refusedSocket();
}, { Server: function Server() {
  refusedSocket();
} }));

const CHILD_PROCESS_STUB = childProcessStub();

function childProcessStub(): object {
  const refuse = (): never => {
    throw new ModuleDeniedError('child_process');
  };
  const stub: Record<string, unknown> = {};
  for (const name of ['spawn', 'exec', 'execFile', 'fork', 'execSync', 'execFileSync']) stub[name] = refuse;
  stub.spawnSync = () => ({ status: 127, signal: null, pid: 0, output: [], stdout: null, stderr: null, error: new ModuleDeniedError('child_process') });
  return Object.freeze(stub);
}

/**
 * Pyodide's file system asks process.binding('constants'), which the permission model denies: this
 * answers that one name and refuses the rest. Needed to boot at all, so tests that skip the lockdown
 * install it alone (writable) with shimProcessBinding().
 */
function bindingShim(): (name: string) => unknown {
  const constants = Object.freeze({ fs: fs.constants, os: os.constants });
  return (name: string) => {
    if (name === 'constants') return constants;
    throw new ModuleDeniedError(`process.binding(${JSON.stringify(name)})`);
  };
}

export function shimProcessBinding(): void {
  Object.defineProperty(process, 'binding', { value: bindingShim(), writable: true, configurable: true });
}

export function lockDownRuntime(options: LockdownOptions): RuntimeLockdown {
  const problems: string[] = [];
  let phase: LockdownPhase = 'boot';
  const phaseWord = new Int32Array(new SharedArrayBuffer(4));

  freezeStackTraceApi();

  // The fs module object itself, taken while loading it is allowed: emptied when cells may run.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the module object, not a bundler's copy
  const fsModule = require('node:fs') as Parameters<typeof sealFileSystem>[0];
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS loader object itself
  const Module = require('node:module') as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
  const load = Module._load;
  const check = (request: string): 'stub' | undefined => {
    if (isBuiltin(request)) {
      const decision = decideBuiltin(request, phase);
      if (decision === 'deny') throw new ModuleDeniedError(request);
      return decision === 'stub' ? 'stub' : undefined;
    }
    if (request === 'ws') return 'stub';
    // No file is loaded once cells may run (the bundle is one file; Pyodide's glue is loaded at boot);
    // before that, files are governed by the permission model. Other packages are not ours to load.
    if (phase === 'cells' || !/^(\.{0,2}\/|[A-Za-z]:[\\/]|file:)/.test(request)) throw new ModuleDeniedError(request);
    return undefined;
  };
  freeze(Module, '_load', function guardedLoad(this: unknown, request: string, parent: unknown, isMain: boolean): unknown {
    if (check(request) === 'stub') return stubFor(request);
    return load.call(this, request, parent, isMain);
  });

  const proc = process as unknown as Record<string, unknown>;
  const getBuiltin = proc.getBuiltinModule as ((id: string) => unknown) | undefined;
  if (getBuiltin) {
    freeze(proc, 'getBuiltinModule', (id: string) => (check(String(id)) === 'stub' ? stubFor(String(id)) : getBuiltin.call(process, id)));
  }
  freeze(proc, 'binding', bindingShim());
  // Routes to host files or programs that bypass the fs module: loadEnvFile reads any file into the
  // environment, execve replaces the process (newer Node), report.writeReport writes a file wherever it is
  // told; Electron registers its own bindings (asar archives, shell.openPath) under these names.
  for (const name of ['_linkedBinding', 'dlopen', 'kill', '_kill', '_debugProcess', 'openStdin', 'loadEnvFile', 'execve', 'chdir', 'electronBinding', 'atomBinding']) {
    if (name in proc) {
      freeze(proc, name, () => {
        throw new ModuleDeniedError(`process.${name}`);
      });
    }
  }

  if ('report' in proc) freeze(proc, 'report', Object.freeze({ writeReport: refuse('process.report.writeReport'), getReport: refuse('process.report.getReport') }));

  const globals = globalThis as Record<string, unknown>;
  // Pyodide's Node init leaves a `require` on globalThis that hands out its own module table.
  delete globals.require;
  for (const name of NETWORK_GLOBALS) {
    try {
      delete globals[name];
    } catch {
      /* reported below */
    }
    if (globals[name] !== undefined) problems.push(`the global ${name} could not be removed`);
  }

  if (options.esmHooksPath) {
    try {
      register(pathToFileURL(options.esmHooksPath).href, {
        data: { phase: phaseWord, importableDir: pathToFileURL(options.importableDir).href },
      });
    } catch (error) {
      problems.push(`import() is not guarded: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else {
    problems.push('import() is not guarded: no hooks module was given');
  }

  return {
    get phase() {
      return phase;
    },
    problems,
    enterCellPhase() {
      phase = 'cells';
      Atomics.store(phaseWord, 0, 1);
      problems.push(...sealFileSystem(fsModule));
    },
  };
}

/** A require bound to this bundle, for the probes: it goes through the guarded loader like any other. */
export const probeRequire = createRequire(__filename);
