// Pyodide ships its standard library as Python sources only, so every REPL start compiled the ~150
// modules it imports from source, in wasm: most of a cold start. This adds bytecode for those
// modules to the stdlib zip that `dist/pyodide/` ships, as unchecked hash-based .pyc files next to
// their sources (zipimport prefers a .pyc; "unchecked" means it never re-reads the source to validate
// it, which is safe because both always ship together in one file). Sources stay, so tracebacks and
// `inspect` still see them. Only the modules a REPL start and common cells import are compiled: the
// whole library would add 4.4 MB to the package, these add about 1.6 MB.
//
// The bytecode is made by the same Pyodide that runs it (its CPython version and magic number), at
// build time, and cached in .cache/ keyed by the inputs, so later builds only copy it.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/**
 * Imported before choosing what to compile, on top of what Pyodide imports at start: the prelude's
 * and its warm-up's modules (src/worker/python/*.py, preludeInstall.ts) and ones cells often use.
 * A module missing here still works; it is only compiled from source when first imported.
 */
export const PRECOMPILED_IMPORTS = [
  're', 'json', 'ast', 'traceback', 'linecache', 'codecs', 'time', 'keyword', 'os', 'math', 'collections',
  'itertools', 'functools', 'signal', 'builtins', 'gc', 'types',
  'string', 'textwrap', 'difflib', 'statistics', 'datetime', 'heapq', 'bisect', 'csv', 'random', 'hashlib',
  'base64', 'fnmatch', 'dataclasses', 'typing', 'enum', 'operator', 'copy', 'pprint', 'io', 'unicodedata',
  'html', 'struct', 'contextlib', 'abc', 'numbers', 'warnings', 'weakref',
];

/** Runs inside Pyodide: imports the list, then writes the zip with a .pyc beside each loaded module's source. */
const COMPILE_SCRIPT = `
import sys, zipfile, importlib.util
import importlib._bootstrap_external as bootstrap
for name in IMPORTS:
    __import__(name)
prefix = ZIP_PATH + '/'
wanted = set()
for module in list(sys.modules.values()):
    path = getattr(module, '__file__', None) or ''
    if path.startswith(prefix) and path.endswith('.py'):
        wanted.add(path[len(prefix):])
compiled = 0
with zipfile.ZipFile(IN_PATH) as source, zipfile.ZipFile(OUT_PATH, 'w') as out:
    names = set(source.namelist())
    for info in source.infolist():
        data = source.read(info)
        out.writestr(info, data)
        if info.filename in wanted and info.filename + 'c' not in names:
            code = compile(data, prefix + info.filename, 'exec', dont_inherit=True, optimize=0)
            pyc = bootstrap._code_to_hash_pyc(code, importlib.util.source_hash(data), checked=False)
            entry = zipfile.ZipInfo(info.filename + 'c', info.date_time)
            entry.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(entry, bytes(pyc))
            compiled += 1
compiled
`;

export class PrecompileError extends Error {
  constructor(message, options) {
    super(message, options);
    this.name = 'PrecompileError';
  }
}

async function compileZip(pyodideDir, sourceZip) {
  const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, 'pyodide.mjs')).href);
  const quiet = () => undefined;
  const pyodide = await loadPyodide({ indexURL: pyodideDir + '/', stdout: quiet, stderr: quiet });
  // Where Pyodide mounts the stdlib zip (/lib/python3XX.zip): the compiled code's file names start there.
  const zipPath = pyodide.runPython('import os; os.path.dirname(os.__file__)');
  pyodide.FS.writeFile('/tmp/stdlib-in.zip', sourceZip);
  const globals = pyodide.toPy({ IMPORTS: PRECOMPILED_IMPORTS, ZIP_PATH: zipPath, IN_PATH: '/tmp/stdlib-in.zip', OUT_PATH: '/tmp/stdlib-out.zip' });
  try {
    const compiled = pyodide.runPython(COMPILE_SCRIPT, { globals });
    // Pyodide starts with ~145 stdlib modules loaded; far fewer means the zip was not where expected.
    if (typeof compiled !== 'number' || compiled < 100) {
      throw new PrecompileError(`only ${String(compiled)} modules were compiled from ${zipPath}; expected over 100`);
    }
    return { bytes: pyodide.FS.readFile('/tmp/stdlib-out.zip'), compiled };
  } finally {
    globals.destroy();
  }
}

/**
 * The path of the stdlib zip with bytecode for `pyodideDir`'s Pyodide, made once per input and cached
 * in `cacheDir`. Throws PrecompileError if the result looks wrong; never returns the plain zip silently.
 */
export async function precompiledStdlib({ pyodideDir, cacheDir }) {
  const sourceZip = await readFile(join(pyodideDir, 'python_stdlib.zip'));
  const { version } = JSON.parse(await readFile(join(pyodideDir, 'package.json'), 'utf8'));
  const key = createHash('sha256').update(sourceZip).update('\0').update(COMPILE_SCRIPT).update('\0').update(PRECOMPILED_IMPORTS.join(',')).digest('hex').slice(0, 16);
  const target = join(cacheDir, `python_stdlib-${version}-${key}.zip`);
  if (existsSync(target)) return target;
  let result;
  try {
    result = await compileZip(pyodideDir, sourceZip);
  } catch (error) {
    if (error instanceof PrecompileError) throw error;
    throw new PrecompileError(`could not precompile the Python standard library with Pyodide ${version}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  await mkdir(cacheDir, { recursive: true });
  const tmp = `${target}.${process.pid}.tmp`;
  await writeFile(tmp, result.bytes);
  await rename(tmp, target);
  return target;
}
