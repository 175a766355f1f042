// `npm start` (scripts/start.mjs) serves a working VS Code with the extension, and Ctrl-C stops
// every process it started.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { findFreePort } from '../../../../scripts/codeServer/launch.mjs';
import { stopProcessGroup, trackProcessGroup } from '../../../../scripts/codeServer/processGroups.mjs';
import { launchChromium } from '../../harness/chromium';
import { newSessionDir, repoRoot } from '../../harness/outputPaths';
import { Workbench } from '../../harness/workbench';

/** Processes whose command line mentions `needle` (here: the private state directory). */
function processesMentioning(needle: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
      if (cmdline.includes(needle) && state !== 'Z') found.push(`${pid}: ${cmdline.slice(0, 160)}`);
    } catch {
      // The process ended while we looked.
    }
  }
  return found;
}

test('npm start serves VS Code with the extension in the palette, and Ctrl-C stops everything', { timeout: 240_000 }, async (t) => {
  const stateDir = await newSessionDir('npm-start');
  const port = await findFreePort();
  const child = spawn(process.execPath, [join(repoRoot, 'scripts', 'start.mjs')], {
    cwd: repoRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, RLM_START_STATE_DIR: stateDir, RLM_PORT: String(port), RLM_SKIP_PACKAGE: '1' },
  });
  trackProcessGroup(child.pid ?? 0);
  t.after(() => stopProcessGroup(child.pid ?? 0));
  let output = '';
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<number | string | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start printed no URL within 120 s:\n${output}`)), 120_000);
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /is running: (http:\/\/127\.0\.0\.1:\d+\/\S*)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then((code) => reject(new Error(`npm start exited (${String(code)}) before printing a URL:\n${output}`)));
  });
  assert.ok(url.startsWith(`http://127.0.0.1:${port}/`), `unexpected URL ${url}`);

  const browser = await launchChromium();
  t.after(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const workbench = new Workbench(page, 'npm-start');
  await workbench.open(url);
  await workbench.findPaletteEntry('RLM: Ask RLM about this file');
  await workbench.screenshot('palette-in-npm-start');
  await browser.close();

  // What Ctrl-C does in a terminal: SIGINT to the foreground process group.
  process.kill(-(child.pid ?? 0), 'SIGINT');
  const code = await exited;
  assert.notEqual(code, null, 'npm start did not exit on SIGINT');
  const deadline = Date.now() + 10_000;
  while (processesMentioning(stateDir).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(processesMentioning(stateDir), [], 'processes left running after Ctrl-C');
  await assert.rejects(fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(2000) }), 'code-server still answers after Ctrl-C');
});
