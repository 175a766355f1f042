// `npm start`: VS Code in the browser with the extension loaded, from any checkout (a fresh clone
// included). Installs dependencies when node_modules does not match the lock file, builds and
// packages the extension (fast, so a broken build fails before the long step), prepares
// code-server (once), installs the extension into a persistent profile under .cache/start/,
// serves a copy of the sample workspace on 127.0.0.1, and prints the URL. Ctrl-C stops
// code-server and everything it started. Anything that cannot work ends it with one sentence.
//
// `npm start [-- <folder>]` opens another folder instead. RLM_PORT picks the port (default 8080,
// or a free one when 8080 is taken). For tests: RLM_START_STATE_DIR moves .cache/start/, and
// RLM_SKIP_PACKAGE=1 installs the existing rlm-vscode.vsix without rebuilding it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ensureDependencies, SetupError } from './dependencies.mjs';
import { findFreePort, installExtension, startCodeServer, writeUserSettings } from './codeServer/launch.mjs';
import { prepareCodeServer } from './codeServer/prepare.mjs';
import { repoRoot } from './codeServer/paths.mjs';

const stateDir = resolve(process.env.RLM_START_STATE_DIR ?? join(repoRoot, '.cache', 'start'));

function run(command, args) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePromise() : reject(new SetupError(`${command} ${args.join(' ')} failed (exit ${code}), see its output above.`))));
  });
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
  const deps = await ensureDependencies();
  if (deps.installed) console.log(`Dependencies installed in ${deps.seconds.toFixed(1)} s.`);
  if (process.env.RLM_SKIP_PACKAGE !== '1') await run('npm', ['run', '--silent', 'package']);
  await prepareCodeServer();
  const userDataDir = join(stateDir, 'user-data');
  const extensionsDir = join(stateDir, 'extensions');
  await mkdir(extensionsDir, { recursive: true });
  // Settings are only seeded once: the user's changes (for example a configured model) persist.
  if (!existsSync(join(userDataDir, 'User', 'settings.json'))) await writeUserSettings(userDataDir);
  await installExtension({ vsix: join(repoRoot, 'rlm-vscode.vsix'), userDataDir, extensionsDir });
  const server = await startCodeServer({
    workspace: folder,
    userDataDir,
    extensionsDir,
    logFile: join(stateDir, 'code-server.log'),
    port,
  });
  const url = new URL(server.url);
  url.searchParams.set('folder', folder);
  console.log('');
  console.log(`  VS Code with RLM is running: ${url.toString()}`);
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
