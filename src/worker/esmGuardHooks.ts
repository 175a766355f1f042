// The import() half of sandbox layer 2: module resolution hooks, registered by the REPL worker with
// module.register() before Pyodide loads (runtimeLockdown.ts), built into dist/esmGuardHooks.mjs.
// Node runs them on its own loader thread, so they are reached only through import() and cannot be
// edited by code in the worker. Every specifier is refused unless it is
// - a built-in the policy allows in the current phase (lockdownPolicy.ts), or
// - a file inside Pyodide's runtime directory (Pyodide imports its glue module from there).
// data: and http(s): URLs are refused: importing one would evaluate code that
// --disallow-code-generation-from-strings does not cover.
import { isBuiltin } from 'node:module';
import { decideBuiltin, ModuleDeniedError } from './lockdownPolicy';

interface HookData {
  /** Int32Array over shared memory: 0 while booting, 1 once cells may run. */
  phase: Int32Array;
  /** file: URL of the directory whose files may be imported, with a trailing slash. */
  importableDir: string;
}

let data: HookData | undefined;

/** Longest delay a Node timer takes; the timer exists only to be pending. */
const NEVER_MS = 2 ** 31 - 1;

export function initialize(init: HookData): void {
  data = init;
  // Node's loader thread stops listening after its first request and only polls between turns of its
  // event loop; with nothing else pending, that loop runs dry, and Node drains the thread's pending
  // platform work before it turns again. In the REPL process the probes' second import() then waited
  // 30-170 ms, until V8's optimising compile of Pyodide's WebAssembly (for the worker) ended. A timer
  // that never fires keeps this loop turning, and the wait is gone; the thread still ends with the
  // worker that registered these hooks (esmGuardHooksLoop.test.ts).
  setInterval(() => undefined, NEVER_MS);
}

type NextResolve = (specifier: string, context: unknown) => Promise<{ url: string }> | { url: string };

export async function resolve(specifier: string, context: { parentURL?: string }, next: NextResolve): Promise<{ url: string; shortCircuit?: boolean }> {
  const settings = data;
  if (!settings) throw new ModuleDeniedError(specifier);
  const phase = Atomics.load(settings.phase, 0) === 1 ? 'cells' : 'boot';
  if (isBuiltin(specifier)) {
    // A stub cannot be handed out through import(); child_process is refused here instead.
    if (decideBuiltin(specifier, phase) !== 'allow') throw new ModuleDeniedError(specifier);
    return next(specifier, context);
  }
  const resolved = await next(specifier, context);
  const dir = settings.importableDir.endsWith('/') ? settings.importableDir : `${settings.importableDir}/`;
  if (!resolved.url.startsWith(dir) || resolved.url.includes('/../')) throw new ModuleDeniedError(specifier);
  return resolved;
}
