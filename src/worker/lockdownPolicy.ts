// Which Node built-in modules the REPL process may still load once it is locked down (sandbox layer 2).
// An allow-list, not a deny-list: a built-in added by a later Node is refused until someone decides it
// is harmless. Pure data and one decision function, so the policy is unit-tested on its own; the
// mechanisms that apply it live in runtimeLockdown.ts (CommonJS and getBuiltinModule) and
// esmGuardHooks.ts (import()).

/**
 * `boot`: Pyodide is loading (its glue imports `module` for createRequire, the bundle's own loader uses
 * `vm`). `cells`: model-written code may run; only what Pyodide touches at run time is left.
 */
export type LockdownPhase = 'boot' | 'cells';

/** Loaded lazily by Pyodide's random source and path handling while cells run: none touches a file. */
const CELL_BUILTINS = ['path', 'url', 'crypto', 'util', 'buffer', 'events', 'stream', 'string_decoder', 'timers', 'perf_hooks'];

/**
 * The host file system. Pyodide reads its runtime and standard library while it boots (into its
 * in-memory file system); after that the REPL process needs no host file, so once cells may run these
 * are refused like the network modules, and the objects Pyodide already holds are emptied
 * (runtimeLockdown.ts). Layer 2 then keeps host files out whether or not Node's permission model is in
 * force (Electron may not honour it).
 */
export const FILE_BUILTINS = ['fs', 'fs/promises'];

/** Needed only while Pyodide starts. */
const BOOT_ONLY_BUILTINS = [...FILE_BUILTINS, 'module', 'vm', 'os', 'v8', 'worker_threads', 'assert', 'path/posix', 'path/win32'];

/**
 * Handed a stub instead of the real module. Emscripten implements os.system() with
 * child_process.spawnSync and turns a thrown error into a fatal crash, so that stub answers "exit 127";
 * Pyodide's stdio asks tty.isatty, and tty's streams are network sockets, so that stub has isatty only.
 */
export const STUBBED_BUILTINS = ['child_process', 'tty'];

/** Refused in every phase (child_process gets its stub); docs/security.md lists them. */
export const NETWORK_AND_PROCESS_BUILTINS = [
  'net', 'tls', 'dgram', 'http', 'https', 'http2', 'dns', 'dns/promises', 'inspector', 'inspector/promises',
  'cluster', 'repl', 'wasi', 'trace_events', 'undici', 'sqlite', 'test', 'diagnostics_channel', 'async_hooks',
];

/** Allowed while Pyodide boots, refused once cells may run: they evaluate code or start threads. */
export const CODE_LOADING_BUILTINS = ['worker_threads', 'vm', 'module', 'v8'];

type BuiltinDecision = 'allow' | 'stub' | 'deny';

/** `name` with or without the `node:` scheme. */
export function decideBuiltin(name: string, phase: LockdownPhase): BuiltinDecision {
  const bare = name.startsWith('node:') ? name.slice(5) : name;
  if (STUBBED_BUILTINS.includes(bare)) return 'stub';
  if (CELL_BUILTINS.includes(bare)) return 'allow';
  if (phase === 'boot' && BOOT_ONLY_BUILTINS.includes(bare)) return 'allow';
  return 'deny';
}

/** The error every refused load throws: one message, so tests and probes can recognise it. */
export class ModuleDeniedError extends Error {
  override readonly name = 'ModuleDeniedError';
  readonly code = 'ERR_RLM_SANDBOX_DENIED';
  constructor(readonly specifier: string) {
    super(`the RLM sandbox does not allow loading ${JSON.stringify(specifier)} in the REPL process`);
  }
}
