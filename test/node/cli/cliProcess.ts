// Runs the built `rlm` (dist/rlm.js, which starts dist/cli.js from V8's code cache) as a user would, in
// its own process, and collects what it printed. The code cache lands under HOME, the test's folder:
// a test's first run makes it and its later runs start from it, so both paths are exercised.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const CLI = resolve(__dirname, '../../../dist/rlm.js');

interface CliOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export function assertCliBuilt(): void {
  if (!existsSync(CLI)) throw new Error('dist/rlm.js is missing: run `npm run build` before this test');
}

/**
 * HOME is the working folder, so nothing from the real home leaks in; each call gets its own empty
 * sub-call cache unless the test passes RLM_CACHE_DIR (a second identical ask must still reach the
 * server); a guard kills a run that never exits.
 */
export function runCli(args: string[], cwd: string, env: Record<string, string> = {}, onStderr?: (text: string, child: ChildProcess) => void, timeoutMs = 60_000): Promise<CliOutcome> {
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, ...args], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, RLM_CACHE_DIR: mkdtempSync(join(tmpdir(), 'rlm-cli-cache-')), ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString();
    onStderr?.(stderr, child);
  });
  return new Promise((done, fail) => {
    const guard = setTimeout(() => {
      child.kill('SIGKILL');
      fail(new Error(`rlm did not exit in ${timeoutMs / 1000} s; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(guard);
      done({ code, stdout, stderr, ms: Date.now() - started });
    });
  });
}
