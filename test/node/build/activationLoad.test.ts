// What the extension runs when VS Code activates it: dist/extension.js is loaded and activate() called
// against a stand-in `vscode` (the activation bench's probe). Nothing heavy may run then: not the SDKs,
// not Pyodide, not the engine bundle, not zod (building the trajectory and webview schemas was most of
// the activation time; they are built when a file is read or a view posts its first message), and not
// the built-ins only compressed files and PDFs need (zlib, worker_threads, web streams).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const repoRoot = join(__dirname, '..', '..', '..');

test('activating the extension loads no SDK, no engine, no decoder built-in and builds no zod schema', () => {
  const probe = spawnSync(process.execPath, [join(repoRoot, 'bench', 'extension', 'activationProbe.mjs'), join(repoRoot, 'dist', 'extension.js')], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(probe.status, 0, probe.stderr);
  const result = JSON.parse(probe.stdout) as { heavy: string[]; activateMs: number };
  assert.deepEqual(result.heavy, []);
});
