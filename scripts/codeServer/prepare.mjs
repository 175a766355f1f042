// Prepares code-server (VS Code in the browser) once into a git-ignored cache directory, offline
// apart from the npm registry. The recipe is the one measured in issue 8; a plain
// `npm i code-server` fails here three ways (root postinstall, kerberos headers, ripgrep download).
// Work happens in a scratch directory that is renamed into place only when every step succeeded,
// so an interrupted run never leaves a cache that looks prepared.
//
// `node scripts/codeServer/prepare.mjs [--force]`; also exported as prepareCodeServer().
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, chmod, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  CODE_SERVER_VERSION, cacheRoot, codeServerEntry, codeServerPackageDir, installDir, repoRoot, stampFile, stampText,
} from './paths.mjs';

/** Native modules of VS Code's server that need a build against the local Node headers. */
const NATIVE_MODULES = ['kerberos', '@vscode/spdlog', '@vscode/deviceid', 'native-watchdog', 'node-pty'];

/**
 * How long a first preparation takes: downloading VS Code's server and its extensions from the npm
 * registry and compiling five native modules. Measured at 46-51 s on the 2-core development machine
 * with npm's cache warm; more with a cold cache or a busy machine (docs/npm-start.md).
 */
export const PREPARE_EXPECTATION = 'usually 1-3 min';

export class PrepareError extends Error {
  constructor(step, detail) {
    super(`Preparing code-server ${CODE_SERVER_VERSION} failed at "${step}": ${detail}`);
    this.name = 'PrepareError';
    this.step = step;
  }
}

/** True when the cache holds a complete preparation of this version and recipe. */
export async function isPrepared() {
  if (!existsSync(stampFile()) || !existsSync(codeServerEntry())) return false;
  return (await readFile(stampFile(), 'utf8')) === stampText();
}

function run(step, command, args, { cwd, log, env, onStep }) {
  onStep?.(step);
  log(`  $ ${[command, ...args].join(' ')}   (in ${cwd})`);
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => { output = (output + chunk.toString()).slice(-8000); };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => reject(new PrepareError(step, err.message)));
    child.on('close', (code, signal) => {
      if (code === 0) resolvePromise();
      else {
        // The tool's last line usually says what to do (installSystemPackages.sh names the apt command).
        const lastLine = output.trim().split('\n').pop() ?? '';
        reject(new PrepareError(step, `${command} exited with ${signal ?? code}${lastLine ? `: ${lastLine}` : ''}\n${output}`));
      }
    });
  });
}

async function npmNodedir(log) {
  // Without --nodedir node-gyp tries to download Node headers, which fails offline.
  const fromConfig = await new Promise((resolvePromise) => {
    const child = spawn('npm', ['config', 'get', 'nodedir'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (c) => { out += c; });
    child.on('close', () => resolvePromise(out.trim()));
    child.on('error', () => resolvePromise(''));
  });
  const candidates = [fromConfig, resolve(dirname(process.execPath), '..')].filter((d) => d && d !== 'undefined' && d !== 'null');
  const found = candidates.find((d) => existsSync(join(d, 'include', 'node', 'node_api.h')));
  if (!found) throw new PrepareError('node headers', `no include/node/node_api.h under ${candidates.join(' or ')}; install Node's headers (Debian: nodejs-dev / the NodeSource package ships them)`);
  log(`  node headers: ${found}`);
  return found;
}

function nodeGypScript() {
  // npm's own copy of node-gyp; npx aborts here, so it is called through node directly.
  const npmDir = resolve(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm');
  const candidates = [join(npmDir, 'node_modules', 'node-gyp', 'bin', 'node-gyp.js'), '/usr/lib/node_modules/npm/node_modules/node-gyp/bin/node-gyp.js'];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new PrepareError('node-gyp', `npm's node-gyp was not found at ${candidates.join(' or ')}`);
  return found;
}

async function systemPackages(log, onStep) {
  await run('system packages', 'bash', [join(repoRoot, 'scripts', 'installSystemPackages.sh')], { cwd: repoRoot, log, onStep });
  if (!existsSync('/usr/bin/rg')) throw new PrepareError('system packages', '/usr/bin/rg is missing after installing ripgrep');
}

async function buildInto(dir, log, onStep) {
  const opts = { cwd: dir, log, onStep };
  await mkdir(dir, { recursive: true });
  await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'rlm-code-server-cache', private: true }, null, 2));
  const npmFlags = ['--no-audit', '--no-fund', '--loglevel=error'];
  await run('npm install code-server', 'npm', ['install', `code-server@${CODE_SERVER_VERSION}`, '--ignore-scripts', ...npmFlags], opts);
  await run('rebuild argon2', 'npm', ['rebuild', 'argon2', ...npmFlags], opts);

  const vscodeDir = join(codeServerPackageDir(dir), 'lib', 'vscode');
  await run('lib/vscode dependencies', 'npm', ['install', '--omit=dev', '--ignore-scripts', ...npmFlags], { cwd: vscodeDir, log, onStep });

  const nodedir = await npmNodedir(log);
  const gyp = nodeGypScript();
  for (const name of NATIVE_MODULES) {
    const moduleDir = join(vscodeDir, 'node_modules', name);
    if (!existsSync(moduleDir)) throw new PrepareError(`native ${name}`, `${moduleDir} does not exist`);
    await run(`native ${name}`, process.execPath, [gyp, 'rebuild', `--nodedir=${nodedir}`, `--jobs=2`], { cwd: moduleDir, log, onStep });
  }

  const rgDir = join(vscodeDir, 'node_modules', '@vscode', 'ripgrep', 'bin');
  await mkdir(rgDir, { recursive: true });
  await copyFile('/usr/bin/rg', join(rgDir, 'rg'));
  await chmod(join(rgDir, 'rg'), 0o755);

  // VS Code's server resolves some modules through node_modules.asar, which only exists in packaged builds.
  await rm(join(vscodeDir, 'node_modules.asar'), { force: true });
  await symlink('node_modules', join(vscodeDir, 'node_modules.asar'));

  await run('built-in extensions', 'npm', ['install', '--omit=dev', ...npmFlags], { cwd: join(vscodeDir, 'extensions'), log, onStep });
  if (!existsSync(codeServerEntry(dir))) throw new PrepareError('verify', `${codeServerEntry(dir)} is missing`);
  await writeFile(join(dir, '.prepared'), stampText());
}

/**
 * Prepares code-server unless the cache already holds it. Returns where it is and whether work was done.
 * `onStep` hears the name of each part as it starts ("npm install code-server", "native node-pty"),
 * for a progress line that says what is being waited for.
 * @param {{ force?: boolean, log?: (line: string) => void, onStep?: (step: string) => void }} [options]
 */
export async function prepareCodeServer({ force = false, log = (line) => console.log(line), onStep } = {}) {
  const target = installDir();
  if (!force && (await isPrepared())) {
    return { dir: target, entry: codeServerEntry(), prepared: false, seconds: 0 };
  }
  const started = Date.now();
  log(`Preparing code-server ${CODE_SERVER_VERSION} into ${target} (one time; ${PREPARE_EXPECTATION})`);
  await systemPackages(log, onStep);
  await mkdir(cacheRoot(), { recursive: true });
  const scratch = `${target}.partial-${process.pid}`;
  await rm(scratch, { recursive: true, force: true });
  try {
    await buildInto(scratch, log, onStep);
    if (!force && (await isPrepared())) {
      // Another process finished first and may be using its copy: keep that one.
      await rm(scratch, { recursive: true, force: true });
    } else {
      await rm(target, { recursive: true, force: true });
      await rename(scratch, target);
    }
  } catch (err) {
    await rm(scratch, { recursive: true, force: true });
    throw err;
  }
  const seconds = Math.round((Date.now() - started) / 100) / 10;
  log(`code-server ${CODE_SERVER_VERSION} prepared in ${seconds} s`);
  return { dir: target, entry: codeServerEntry(), prepared: true, seconds };
}

const invokedDirectly = process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
// No top-level await: TypeScript tests load this module through require().
if (invokedDirectly) {
  prepareCodeServer({ force: process.argv.includes('--force') }).then(
    (result) => {
      if (!result.prepared) console.log(`code-server ${CODE_SERVER_VERSION} already prepared in ${result.dir}`);
    },
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exitCode = 1;
    },
  );
}
