// What identifies the build a Pyodide memory snapshot was made by, beyond the Pyodide version and the
// Python sources (preludeKey): the worker bundle that boots it and Pyodide's own files. The snapshot
// cache is per user, so two checkouts or two versions of the extension share it; a key that named only
// the Python sources once let one checkout's build start from another's snapshot, whose memory holds
// the other build's JavaScript-side patches and layout.
// Cost, paid at every REPL start: the bundle (about 260 KB) is hashed whole; Pyodide's files, whose
// version is in the key already, by their size and their first and last 64 KB each (a rebuilt
// Pyodide of the same version differs there: its JavaScript embeds the wasm's layout and exports).
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import { join } from 'node:path';

const SAMPLE = 64 * 1024;

/** Pyodide's files that make up its build, in its folder (python_stdlib.zip is in preludeKey). */
const PYODIDE_FILES = ['pyodide.asm.mjs', 'pyodide.asm.wasm', 'pyodide.mjs', 'pyodide-lock.json'];

interface BuildFiles {
  /** The worker bundle that is running (dist/replWorker.js). */
  workerFile: string;
  /** Pyodide's folder. */
  pyodideDir: string;
}

/** 16 hex digits naming this build; a file that cannot be read is named as missing, never skipped silently. */
export function buildIdentity(files: BuildFiles): string {
  const hash = createHash('sha256');
  const whole = (path: string): void => {
    hash.update(path.slice(path.lastIndexOf('/') + 1)).update('\0');
    try {
      hash.update(readFileSync(path));
    } catch (error) {
      hash.update(`missing:${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
    hash.update('\0');
  };
  whole(files.workerFile);
  for (const name of PYODIDE_FILES) hash.update(name).update('\0').update(sampled(join(files.pyodideDir, name))).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** A large file's size and its first and last SAMPLE bytes. */
function sampled(path: string): Buffer {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    return Buffer.from(`missing:${(error as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  try {
    const size = fstatSync(fd).size;
    const head = Buffer.alloc(Math.min(SAMPLE, size));
    readSync(fd, head, 0, head.length, 0);
    const tail = Buffer.alloc(Math.min(SAMPLE, size));
    readSync(fd, tail, 0, tail.length, size - tail.length);
    return Buffer.concat([Buffer.from(`${size}\0`), head, tail]);
  } finally {
    closeSync(fd);
  }
}
