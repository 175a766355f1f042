// Layer 2's file half, applied when the REPL worker enters the cells phase. Refusing `fs` to new loads
// (lockdownPolicy.ts) is not enough: Pyodide took the module while it booted, and keeps it where JS in
// the worker can find it (Emscripten's NODEFS, its `readBinary`, the `require` it leaves on globalThis,
// pyodide.mjs's `import('node:fs')` namespaces). So the module objects themselves are emptied: every
// function and lazy class on `fs` and `fs/promises` is replaced by one that refuses, the objects are
// frozen, and the ES-module views of them are re-synchronised. Whoever holds a reference, taken before
// or after, holds a module that opens nothing. The REPL's own descriptor I/O (the bridge pipe) keeps the
// two functions it captured at load, in a closure no JS can reach.
import { syncBuiltinESMExports } from 'node:module';
import { ModuleDeniedError } from './lockdownPolicy';

function refuser(name: string): () => never {
  return () => {
    throw new ModuleDeniedError(name);
  };
}

/** Replaces every function and accessor of `target` (except `keep`) by a refuser, then freezes it. */
function empty(target: object, label: string, keep: readonly string[] = []): number {
  let replaced = 0;
  for (const key of Object.getOwnPropertyNames(target)) {
    if (keep.includes(key)) continue;
    const d = Object.getOwnPropertyDescriptor(target, key);
    if (!d || !(typeof d.value === 'function' || d.get || d.set)) continue;
    if (!d.configurable && !d.writable) continue;
    Object.defineProperty(target, key, { value: refuser(`${label}.${key}`), writable: false, configurable: false, enumerable: d.enumerable ?? false });
    replaced++;
  }
  Object.freeze(target);
  return replaced;
}

/** The module object itself, as `require` returns it (a bundler's `import * as` hands a copy). */
interface FsModule {
  promises: object;
}

/**
 * Empties `fs` (taken by the caller while loading it was still allowed) and its promises object.
 * Problems, in words; empty when both were emptied.
 */
export function sealFileSystem(fs: FsModule): string[] {
  const problems: string[] = [];
  try {
    // Taken before `fs` is emptied: `promises` is an accessor on it, kept so it still hands out this object.
    const promises = fs.promises;
    empty(promises, 'fs/promises');
    empty(fs, 'fs', ['promises']);
    // `import('node:fs')` namespaces copy the exports; this makes them read the emptied ones.
    syncBuiltinESMExports();
  } catch (error) {
    problems.push(`the file-system module could not be emptied: ${error instanceof Error ? error.message : String(error)}`);
  }
  return problems;
}
