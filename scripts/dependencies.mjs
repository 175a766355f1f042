// The first step of `npm start` and `npm test` on any checkout, a fresh clone included: checks the
// Node version and that node_modules holds exactly what package-lock.json pins, and runs `npm ci`
// when it does not. Only Node built-ins are imported, since it runs before any dependency exists.
// A current tree is checked in well under a second (one small read per locked package).
//
// `node scripts/dependencies.mjs` (what the npm scripts call); also exported for start.mjs and tests.
import { spawn } from 'node:child_process';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const defaultRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '..');

/** A set-up step that cannot work; the message is one sentence a person can act on. */
export class SetupError extends Error {
  constructor(message) {
    super(message);
    this.name = 'SetupError';
  }
}

function parseVersion(text) {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function compareVersions(a, b) {
  for (let i = 0; i < 3; i += 1) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/**
 * The one-sentence reason the running Node cannot serve this repository (engines.node, a ">=x.y.z"
 * range), or undefined when it can.
 */
export function nodeVersionProblem(engines, nodeVersion = process.versions.node) {
  const minimum = /^\s*>=\s*(\d+\.\d+\.\d+)\s*$/.exec(engines ?? '')?.[1];
  const have = parseVersion(nodeVersion);
  if (!minimum || !have) return undefined;
  const need = parseVersion(minimum);
  if (compareVersions(have, need) >= 0) return undefined;
  return `This repository needs Node ${minimum} or newer, and this is Node ${nodeVersion}: install a current Node (https://nodejs.org) and run the command again.`;
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * Compares node_modules with package-lock.json. Returns { state: 'current' } or
 * { state: 'missing' | 'stale', reason } where reason names the first difference found.
 * Optional packages (platform builds such as @esbuild/darwin-arm64) may be absent.
 */
export function checkDependencies(root = defaultRoot) {
  const lockFile = join(root, 'package-lock.json');
  if (!existsSync(lockFile)) throw new SetupError(`${lockFile} is missing: restore it from git (git checkout package-lock.json) so that dependencies install as pinned.`);
  let lock;
  try {
    lock = readJson(lockFile);
  } catch (err) {
    throw new SetupError(`package-lock.json is not valid JSON (${err instanceof Error ? err.message : String(err)}): restore it from git.`);
  }
  if (!lock.packages || typeof lock.packages !== 'object') throw new SetupError('package-lock.json has no "packages" map (lockfileVersion 2 or 3 is needed): regenerate it with npm 7 or newer.');
  if (!existsSync(join(root, 'node_modules'))) return { state: 'missing', reason: 'node_modules does not exist' };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (!path.startsWith('node_modules/')) continue;
    const manifest = join(root, path, 'package.json');
    let installed;
    try {
      installed = readJson(manifest);
    } catch {
      if (entry.optional) continue;
      return { state: 'stale', reason: `${path.slice('node_modules/'.length)} is not installed` };
    }
    if (entry.link) continue;
    if (entry.version && installed.version !== entry.version) {
      return { state: 'stale', reason: `${path.slice('node_modules/'.length)} is ${String(installed.version)}, the lock file pins ${entry.version}` };
    }
  }
  return { state: 'current' };
}

function runNpm(args, root) {
  return new Promise((resolvePromise) => {
    const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, { cwd: root, stdio: 'inherit' });
    child.on('error', (err) => resolvePromise({ code: null, error: err }));
    child.on('close', (code, signal) => resolvePromise({ code: signal ?? code }));
  });
}

/**
 * Makes node_modules match the lock file, installing with `npm ci` when it does not.
 * Returns { installed, seconds, reason? }; throws SetupError with one sentence when it cannot.
 * `npm` is injectable so tests can stand in for the registry.
 */
export async function ensureDependencies({ root = defaultRoot, log = (line) => console.log(line), npm = runNpm } = {}) {
  const started = Date.now();
  const pkg = readJson(join(root, 'package.json'));
  const versionProblem = nodeVersionProblem(pkg.engines?.node);
  if (versionProblem) throw new SetupError(versionProblem);
  const before = checkDependencies(root);
  if (before.state === 'current') return { installed: false, seconds: (Date.now() - started) / 1000 };
  const nodeModules = join(root, 'node_modules');
  // npm ci empties node_modules first; through a link that would wipe another checkout's tree.
  if (existsSync(nodeModules) && lstatSync(nodeModules).isSymbolicLink()) {
    throw new SetupError(`node_modules is a link to another checkout and does not match this package-lock.json (${before.reason}): run npm ci where it points, or replace the link with a folder.`);
  }
  log(`Installing dependencies (${before.reason}) with npm ci...`);
  const result = await npm(['ci', '--no-audit', '--no-fund'], root);
  if (result.error) throw new SetupError(`npm could not be started (${result.error.message}): install Node with npm and make sure npm is on the PATH.`);
  if (result.code !== 0) throw new SetupError(`npm ci failed (exit ${String(result.code)}), see its output above: check the network connection to the npm registry and run the command again.`);
  const after = checkDependencies(root);
  if (after.state !== 'current') throw new SetupError(`npm ci finished but node_modules still does not match package-lock.json (${after.reason}): delete node_modules and run the command again.`);
  return { installed: true, reason: before.reason, seconds: (Date.now() - started) / 1000 };
}

const invokedDirectly = process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (invokedDirectly) {
  ensureDependencies().then(
    (result) => {
      if (result.installed) console.log(`Dependencies installed in ${result.seconds.toFixed(1)} s.`);
    },
    (err) => {
      console.error(err instanceof SetupError ? err.message : `Checking dependencies failed: ${err instanceof Error ? err.message : String(err)}`);
      process.exitCode = 1;
    },
  );
}
