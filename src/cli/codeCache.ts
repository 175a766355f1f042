// Runs the `rlm` bundle (dist/cli.js) through V8's code cache. Node 20 compiles the 1.4 MB bundle
// afresh at every start (Node 22's module.enableCompileCache does not exist here), which was a third
// of `rlm --version` and ~45 ms of every `rlm ask`. The first run keeps V8's compiled code, taken at
// exit so that it holds every function the command ran, and later runs start from it.
//
// The cache is an optimisation only: any failure to read, use or write it runs the bundle as usual.
// It is keyed by a hash of the bundle's text, Node's version and the architecture, because V8 itself
// checks only the source's length (and its own version and flags) before trusting cached code. And
// each file carries a hash of its own bytes, checked before V8 sees them: V8 does not check the code
// it is given (a cache damaged past its header crashed Node with a segmentation fault).
// It lives in the user's cache folder, as the Pyodide snapshots do: whoever can write there can
// already change what this user's shell runs. A folder or file that another user could have written
// (not owned by this user, or writable by group or others, e.g. XDG_CACHE_HOME under /tmp) is not used.
import { createHash } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import type { Stats } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import { userCacheBase } from './support/userCacheBase';

const PREFIX = 'cli-';
const SUFFIX = '.v8cache';
/** This Node's caches start so; another Node's (a user switching versions) are kept beside them. */
const RUNTIME = `${PREFIX}${process.version}-${process.arch}-`;
/** How many caches of other Node versions are kept, newest first. */
const OTHER_RUNTIMES_KEPT = 3;
const MAGIC = Buffer.from('rlm-v8-code-cache 1\n');
const HASH_BYTES = 32;

/** Where the code cache lives, or undefined when RLM_NO_CODE_CACHE is set. */
export function codeCacheDir(env: NodeJS.ProcessEnv, home: string = homedir()): string | undefined {
  if (env.RLM_NO_CODE_CACHE) return undefined;
  return join(userCacheBase(env, home), 'rlm-vscode', 'code-cache');
}

/** The cache file for this bundle's text on this Node. */
function codeCacheFile(dir: string, source: string): string {
  const key = createHash('sha256').update(`${process.version}\0${process.arch}\0`).update(source).digest('hex').slice(0, 32);
  return join(dir, `${RUNTIME}${key}${SUFFIX}`);
}

/** Runs `bundle` (a CommonJS file) in this process as `node bundle` would, using and keeping a code cache in `cacheDir`. */
export function runWithCodeCache(bundle: string, cacheDir: string | undefined): void {
  if (!cacheDir) {
    createRequire(__filename)(bundle);
    return;
  }
  if (!folderIsMine(cacheDir)) {
    createRequire(__filename)(bundle);
    return;
  }
  const source = readFileSync(bundle, 'utf8').replace(/^#!.*/, '');
  const file = codeCacheFile(cacheDir, source);
  const cachedData = readCache(file);
  // No import() in the bundle (esbuild.mjs turns it into require()): a script from the cache gets no loader for it.
  const script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
  if (!cachedData || script.cachedDataRejected) process.once('exit', () => store(cacheDir, file, script));
  const run = script.runInThisContext() as (exports: object, require: NodeRequire, module: Module, filename: string, dirname: string) => void;
  const module = new Module(bundle);
  module.filename = bundle;
  run.call(module.exports, module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}

/** Written by this user alone: owned by them, and no one else may write it (always so where there are no uids). */
function onlyMine(stats: Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || (stats.uid === uid && (stats.mode & 0o022) === 0);
}

/** The cache folder is this user's alone, or does not exist yet (store() makes it so). */
function folderIsMine(dir: string): boolean {
  try {
    return onlyMine(statSync(dir));
  } catch {
    return true;
  }
}

/** The cached code in `file`, or undefined when there is none, another user could have written it, or its bytes are not the ones written. */
function readCache(file: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    const fd = openSync(file, 'r');
    try {
      if (!onlyMine(fstatSync(fd))) return undefined;
      bytes = readFileSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  const start = MAGIC.length + HASH_BYTES;
  if (bytes.length <= start || !bytes.subarray(0, MAGIC.length).equals(MAGIC)) return undefined;
  const data = bytes.subarray(start);
  return digest(data).equals(bytes.subarray(MAGIC.length, start)) ? data : undefined;
}

function digest(data: Uint8Array): Buffer {
  return createHash('sha256').update(data).digest();
}

/** Writes the cache whole or not at all (another `rlm` may be reading it), and drops the caches no run will use. */
function store(dir: string, file: string, script: vm.Script): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!folderIsMine(dir)) return;
    const temporary = `${file}.${process.pid}.tmp`;
    const data = script.createCachedData();
    writeFileSync(temporary, Buffer.concat([MAGIC, digest(data), data]), { mode: 0o600 });
    renameSync(temporary, file);
    prune(dir, file);
  } catch {
    // Only slower next time.
  }
}

/**
 * Drops this Node's caches of other builds (an update replaced them), and keeps the newest few of other
 * Node versions: a user who switches between two Nodes does not rewrite the cache at every switch.
 */
function prune(dir: string, file: string): void {
  const others: Array<{ path: string; mtimeMs: number }> = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (!name.startsWith(PREFIX) || !name.endsWith(SUFFIX) || path === file) continue;
    if (name.startsWith(RUNTIME) || !name.startsWith(`${PREFIX}v`)) rmSync(path, { force: true });
    else others.push({ path, mtimeMs: statSync(path).mtimeMs });
  }
  others.sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const old of others.slice(OTHER_RUNTIMES_KEPT)) rmSync(old.path, { force: true });
}
