// `npm start`: VS Code in the browser with the extension loaded. Prepares code-server (once),
// builds and packages the extension, installs it into a persistent profile under
// .cache/start/, serves a copy of the sample workspace on 127.0.0.1, and prints the URL.
// Ctrl-C stops code-server and everything it started.
//
// `npm start [-- <folder>]` opens another folder instead. RLM_PORT picks the port (default 8080,
// or a free one when 8080 is taken). For tests: RLM_START_STATE_DIR moves .cache/start/, and
// RLM_SKIP_PACKAGE=1 installs the existing rlm-vscode.vsix without rebuilding it.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { findFreePort, installExtension, startCodeServer, writeUserSettings } from './codeServer/launch.mjs';
import { prepareCodeServer } from './codeServer/prepare.mjs';
import { repoRoot } from './codeServer/paths.mjs';

const stateDir = resolve(process.env.RLM_START_STATE_DIR ?? join(repoRoot, '.cache', 'start'));

function run(command, args) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit' });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePromise() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
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
    if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`RLM_PORT must be a port number, got "${process.env.RLM_PORT}"`);
    if (!(await portIsFree(port))) throw new Error(`port ${port} (RLM_PORT) is already in use on 127.0.0.1`);
    return port;
  }
  return (await portIsFree(8080)) ? 8080 : findFreePort();
}

/** The folder to open: an argument, or a persistent copy of the sample workspace (runs stay in it). */
async function workspaceFolder() {
  const arg = process.argv[2];
  if (arg) {
    const folder = resolve(arg);
    if (!existsSync(folder)) throw new Error(`folder ${folder} does not exist`);
    return folder;
  }
  const folder = join(stateDir, 'sampleWorkspace');
  if (!existsSync(folder)) await cp(join(repoRoot, 'test', 'fixtures', 'sampleWorkspace'), folder, { recursive: true });
  return folder;
}

async function main() {
  await prepareCodeServer();
  if (process.env.RLM_SKIP_PACKAGE !== '1') await run('npm', ['run', '--silent', 'package']);
  const userDataDir = join(stateDir, 'user-data');
  const extensionsDir = join(stateDir, 'extensions');
  await mkdir(extensionsDir, { recursive: true });
  // Settings are only seeded once: the user's changes (for example a configured model) persist.
  if (!existsSync(join(userDataDir, 'User', 'settings.json'))) await writeUserSettings(userDataDir);
  await installExtension({ vsix: join(repoRoot, 'rlm-vscode.vsix'), userDataDir, extensionsDir });
  const folder = await workspaceFolder();
  const server = await startCodeServer({
    workspace: folder,
    userDataDir,
    extensionsDir,
    logFile: join(stateDir, 'code-server.log'),
    port: await choosePort(),
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

main().catch((err) => {
  console.error(`npm start failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
