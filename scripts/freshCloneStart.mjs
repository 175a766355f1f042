// Checks the README's first command the way a new user meets it: clones this repository's HEAD
// into a scratch folder (no node_modules, no dist, no caches), runs `npm start` there, waits for
// the URL, loads it, and stops it with Ctrl-C (SIGINT). Prints how long each part took. Too slow
// for every CI run (it installs every dependency from the registry), so it is run by hand:
//
//   node scripts/freshCloneStart.mjs [--reuse-code-server]
//
// --reuse-code-server points the clone at this checkout's prepared code-server
// (RLM_CODE_SERVER_CACHE) instead of preparing another copy, which saves a couple of minutes.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort } from './codeServer/launch.mjs';
import { cacheRoot, repoRoot } from './codeServer/paths.mjs';

const START_TIMEOUT_MS = 20 * 60_000;

async function main() {
  const scratch = mkdtempSync(join(tmpdir(), 'rlm-fresh-clone-'));
  const clone = join(scratch, 'rlm-vscode');
  const started = Date.now();
  const cloned = spawnSync('git', ['clone', '--quiet', '--no-hardlinks', repoRoot, clone], { stdio: 'inherit' });
  if (cloned.status !== 0) throw new Error(`git clone of ${repoRoot} failed`);
  const port = await findFreePort();
  const env = { ...process.env, RLM_PORT: String(port) };
  delete env.RLM_SKIP_PACKAGE;
  if (process.argv.includes('--reuse-code-server')) env.RLM_CODE_SERVER_CACHE = cacheRoot();
  else delete env.RLM_CODE_SERVER_CACHE;
  console.log(`Cloned into ${clone}; running npm start on port ${port}...`);
  const child = spawn('npm', ['start'], { cwd: clone, env, detached: true, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('npm start printed no URL within 20 minutes')), START_TIMEOUT_MS);
    let output = '';
    child.stdout.on('data', (chunk) => {
      process.stdout.write(chunk);
      output += chunk.toString();
      const match = /is running: (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${String(code)}) before printing a URL`));
    });
  });
  const ready = Date.now();
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  process.kill(-child.pid, 'SIGINT');
  await exited;
  console.log(`\nFresh clone: npm start served VS Code after ${((ready - started) / 1000).toFixed(0)} s; ${url} answered ${response.status}; Ctrl-C stopped it.`);
  rmSync(scratch, { recursive: true, force: true });
}

main().catch((err) => {
  console.error(`Fresh-clone check failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
});
