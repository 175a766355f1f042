// `npm start`: VS Code in the browser with the extension loaded, from any checkout (a fresh clone
// included). Installs dependencies when node_modules does not match the lock file, builds and
// packages the extension (fast, so a broken build fails before the long step), prepares
// code-server (once), installs the extension into a persistent profile under .cache/start/,
// serves a copy of the sample workspace on 127.0.0.1, and prints the URL. Ctrl-C stops
// code-server and everything it started. Anything that cannot work ends it with one sentence.
// It prints numbered steps, each with what it waits for and how long that usually takes, and keeps
// tools' own output (vsce's file list, npm's logs) back unless a step fails (scripts/startProgress.mjs).
//
// `npm start [-- <folder>]` opens another folder instead. RLM_PORT picks the port (default 8080,
// or a free one when 8080 is taken). For tests: RLM_START_STATE_DIR moves .cache/start/, and
// RLM_SKIP_PACKAGE=1 installs the existing rlm-vscode.vsix without rebuilding it.
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { checkDependencies, ensureDependencies, SetupError } from './dependencies.mjs';
import { findFreePort, installExtension, startCodeServer, writeUserSettings } from './codeServer/launch.mjs';
import { isPrepared, prepareCodeServer, PREPARE_EXPECTATION } from './codeServer/prepare.mjs';
import { CODE_SERVER_VERSION, repoRoot } from './codeServer/paths.mjs';
import { createProgress, tailLines } from './startProgress.mjs';

/** npm ci of this repository on a fresh clone (see docs/npm-start.md for the measured figures). */
const DEPENDENCIES_EXPECTATION = 'usually 1-4 min, depending on the network';

const stateDir = resolve(process.env.RLM_START_STATE_DIR ?? join(repoRoot, '.cache', 'start'));

/**
 * Runs a tool with its output kept back: a person needs it only when the tool fails, and then only
 * its last lines (vsce alone lists every packaged file). Resolves with { code, output }.
 */
function runQuietly(command, args) {
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const keep = (chunk) => { output = (output + chunk.toString()).slice(-64_000); };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (error) => resolvePromise({ code: null, error, output }));
    child.on('close', (code, signal) => resolvePromise({ code: signal ?? code, output }));
  });
}

async function run(command, args) {
  const result = await runQuietly(command, args);
  if (result.error) throw new SetupError(`${command} could not be started (${result.error.message}).`);
  if (result.code !== 0) {
    console.error(tailLines(result.output));
    throw new SetupError(`${command} ${args.join(' ')} failed (exit ${String(result.code)}), see its last lines above.`);
  }
}

async function portIsFree(port) {
  const { createServer } = await import('node:net');
  return new Promise((resolvePromise) => {
    const server = createServer();
    server.once('error', () => resolvePromise(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolvePromise(true)));
  });
}

async function choosePort() {
  if (process.env.RLM_PORT) {
    const port = Number(process.env.RLM_PORT);
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new SetupError(`RLM_PORT must be a port number from 1 to 65535, and it is "${process.env.RLM_PORT}".`);
    if (!(await portIsFree(port))) throw new SetupError(`Port ${port} (RLM_PORT) is already in use on 127.0.0.1: stop what uses it or pick another RLM_PORT.`);
    return port;
  }
  return (await portIsFree(8080)) ? 8080 : findFreePort();
}

/** The folder to open: an argument, or a persistent copy of the sample workspace (runs stay in it). */
async function workspaceFolder() {
  const arg = process.argv[2];
  if (arg) {
    const folder = resolve(arg);
    if (!existsSync(folder)) throw new SetupError(`The folder ${folder} does not exist: name an existing folder after npm start --.`);
    return folder;
  }
  const folder = join(stateDir, 'sampleWorkspace');
  if (!existsSync(folder)) await cp(join(repoRoot, 'test', 'fixtures', 'sampleWorkspace'), folder, { recursive: true });
  return folder;
}

async function main() {
  // Mistakes in the command line show before minutes of set-up, not after.
  const port = await choosePort();
  const folder = await workspaceFolder();
  const progress = createProgress({ total: 4 });
  const prepared = await isPrepared();
  const depsNeeded = (() => {
    try {
      return checkDependencies().state !== 'current';
    } catch {
      return false; // ensureDependencies says what is wrong, in its own step.
    }
  })();
  // The honest expectation up front: what makes this run long, if anything.
  const slow = [...(depsNeeded ? [`installs dependencies (${DEPENDENCIES_EXPECTATION})`] : []), ...(prepared ? [] : [`prepares code-server (${PREPARE_EXPECTATION})`])];
  console.log(slow.length ? `Starting VS Code with RLM. This run first ${slow.join(' and ')}; later runs take 1-2 min.` : 'Starting VS Code with RLM: usually 1-2 min (build, package, start).');
  if (!depsNeeded) progress.skip('Dependencies', 'already installed as package-lock.json pins them');
  else {
    await progress.step('Installing dependencies with npm ci', async () => {
      const result = await ensureDependencies({ log: () => {}, npm: async (args) => {
        const ran = await runQuietly('npm', args);
        if (ran.code !== 0 && !ran.error) console.error(tailLines(ran.output));
        return ran;
      } });
      return { note: result.reason ? `(${result.reason})` : '' };
    }, { expect: DEPENDENCIES_EXPECTATION, waiting: 'downloading and installing packages' });
  }

  if (process.env.RLM_SKIP_PACKAGE === '1') progress.skip('Packaging the extension', 'skipped (RLM_SKIP_PACKAGE=1), installing rlm-vscode.vsix as it is');
  else {
    await progress.step('Building and packaging the extension', async () => {
      await run('npm', ['run', '--silent', 'package']);
      const vsix = join(repoRoot, 'rlm-vscode.vsix');
      return { note: `rlm-vscode.vsix, ${(statSync(vsix).size / 1024 / 1024).toFixed(1)} MB` };
    }, { expect: 'usually 30 s to 2 min', waiting: 'building' });
  }

  if (prepared) progress.skip(`Preparing code-server ${CODE_SERVER_VERSION}`, 'already prepared');
  else {
    let part = 'starting';
    await progress.step(`Preparing code-server ${CODE_SERVER_VERSION}, VS Code's server for the browser`, async () => {
      await prepareCodeServer({ log: () => {}, onStep: (step) => (part = step) });
    }, { expect: `one time, ${PREPARE_EXPECTATION}`, waiting: () => `preparing code-server (now: ${part})` });
  }

  const userDataDir = join(stateDir, 'user-data');
  const extensionsDir = join(stateDir, 'extensions');
  const server = await progress.step('Starting code-server with the extension installed', async () => {
    await mkdir(extensionsDir, { recursive: true });
    // Settings are only seeded once: the user's changes (for example a configured model) persist.
    if (!existsSync(join(userDataDir, 'User', 'settings.json'))) await writeUserSettings(userDataDir);
    await installExtension({ vsix: join(repoRoot, 'rlm-vscode.vsix'), userDataDir, extensionsDir });
    return startCodeServer({
      workspace: folder,
      userDataDir,
      extensionsDir,
      logFile: join(stateDir, 'code-server.log'),
      port,
    });
  }, { expect: 'usually 10-30 s', waiting: 'waiting for code-server to answer' });
  const url = new URL(server.url);
  url.searchParams.set('folder', folder);
  console.log('');
  console.log(`  VS Code with RLM is running: ${url.toString()}   (ready after ${progress.elapsed()})`);
  console.log(`  Folder: ${folder}`);
  console.log(`  Log:    ${server.logFile}`);
  console.log('  Open the URL in a browser; try "RLM: Ask RLM about this file" from the command palette (F1).');
  console.log('  Press Ctrl-C to stop.');
  const exitCode = await server.exited;
  console.error(`code-server exited (${String(exitCode)}); see ${server.logFile}`);
  process.exitCode = 1;
}

/** One sentence for the terminal: the first line of the error (a PrepareError appends the tool's output after it). */
function firstLine(err) {
  const text = err instanceof Error ? err.message : String(err);
  return text.split('\n', 1)[0] ?? text;
}

main().catch((err) => {
  const detail = err instanceof Error && !(err instanceof SetupError) ? err.message : '';
  if (detail.includes('\n')) console.error(detail);
  console.error(`npm start failed: ${firstLine(err)}`);
  process.exitCode = 1;
});
