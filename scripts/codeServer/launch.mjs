// Starts the prepared code-server on a free 127.0.0.1 port with its own user-data and extensions
// directories, and installs extensions into it. Used by the integration harness and `npm start`.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { codeServerEntry, CODE_SERVER_VERSION } from './paths.mjs';
import { groupAlive, stopProcessGroup, trackProcessGroup } from './processGroups.mjs';

export class CodeServerError extends Error {
  constructor(message, { logFile } = {}) {
    super(logFile ? `${message} (code-server log: ${logFile})` : message);
    this.name = 'CodeServerError';
    this.logFile = logFile;
  }
}

/** Settings that keep a fresh profile quiet and deterministic: no welcome page, no network. */
export const QUIET_USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'git.enabled': false,
  'chat.commandCenter.enabled': false,
  'security.workspace.trust.startupPrompt': 'never',
  'window.commandCenter': false,
};

/** Asks the OS for a free port on 127.0.0.1. */
export function findFreePort() {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolvePromise(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function requireEntry() {
  const entry = codeServerEntry();
  if (!existsSync(entry)) {
    throw new CodeServerError(`code-server ${CODE_SERVER_VERSION} is not prepared (${entry} is missing). Run: node scripts/codeServer/prepare.mjs`);
  }
  return entry;
}

/** Writes user settings for a fresh profile; `extra` overrides the quiet defaults. */
export async function writeUserSettings(userDataDir, extra = {}) {
  await mkdir(join(userDataDir, 'User'), { recursive: true });
  await writeFile(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...QUIET_USER_SETTINGS, ...extra }, null, 2));
}

/** `code-server --install-extension <vsix>` into the given directories. Offline, under a second. */
export async function installExtension({ vsix, userDataDir, extensionsDir }) {
  if (!existsSync(vsix)) throw new CodeServerError(`extension package ${vsix} does not exist. Run: npm run package`);
  const entry = requireEntry();
  const args = [entry, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir, '--install-extension', vsix, '--force'];
  const output = await new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let text = '';
    child.stdout.on('data', (c) => { text += c; });
    child.stderr.on('data', (c) => { text += c; });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolvePromise(text) : reject(new CodeServerError(`installing ${vsix} failed (exit ${code}): ${text}`))));
  });
  if (!/successfully installed/i.test(output)) throw new CodeServerError(`installing ${vsix} did not report success: ${output}`);
  return output;
}

async function healthy(url) {
  try {
    const response = await fetch(new URL('/healthz', url), { signal: AbortSignal.timeout(1000) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Starts code-server and resolves once /healthz answers.
 * @param {{ workspace?: string, userDataDir: string, extensionsDir: string, logFile: string,
 *   workspaceTrust?: boolean, port?: number, env?: Record<string,string>, timeoutMs?: number }} options
 *   workspaceTrust: keep Workspace Trust enabled (for untrusted-workspace tests); default off.
 */
export async function startCodeServer(options) {
  const { workspace, userDataDir, extensionsDir, logFile, workspaceTrust = false, env = {}, timeoutMs = 60_000 } = options;
  const entry = requireEntry();
  const port = options.port ?? (await findFreePort());
  await mkdir(userDataDir, { recursive: true });
  await mkdir(extensionsDir, { recursive: true });
  // An explicit, empty config keeps code-server from writing ~/.config/code-server/config.yaml.
  const configFile = join(userDataDir, 'code-server.yaml');
  await writeFile(configFile, '');
  const args = [
    entry,
    '--config', configFile,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-getting-started-override',
    '--ignore-last-opened',
    '--user-data-dir', userDataDir,
    '--extensions-dir', extensionsDir,
    ...(workspaceTrust ? [] : ['--disable-workspace-trust']),
    ...(workspace ? [workspace] : []),
  ];
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  trackProcessGroup(child.pid);
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exitInfo;
  const exited = new Promise((resolvePromise) => child.on('exit', (code, signal) => {
    exitInfo = signal ?? code;
    resolvePromise(exitInfo);
  }));
  const url = `http://127.0.0.1:${port}/`;
  const stop = async () => {
    if (groupAlive(child.pid)) await stopProcessGroup(child.pid);
    await new Promise((r) => log.end(r));
  };
  const deadline = Date.now() + timeoutMs;
  while (!(await healthy(url))) {
    if (exitInfo !== undefined) {
      await stop();
      throw new CodeServerError(`code-server exited with ${exitInfo} before answering /healthz`, { logFile });
    }
    if (Date.now() > deadline) {
      await stop();
      throw new CodeServerError(`code-server did not answer ${url}healthz within ${timeoutMs} ms`, { logFile });
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return { url, port, pid: child.pid, logFile, exited, stop };
}
