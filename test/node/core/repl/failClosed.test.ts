// Every fallback fails closed: when a layer cannot start (here Node refusing the permission flag, as an
// Electron build without the permission model would), the REPL is not started again without it unless the
// user accepted a weaker sandbox. A stand-in runtime records each start's arguments and refuses the flag.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WeakSandboxError } from '../../../../src/core/repl/sandboxStrength';
import { repoRoot, startSession } from './replTestKit';

let dir = '';
let runtime = '';
let log = '';

before(() => {
  // Started without the OS layer, as on Windows or macOS without sandbox-exec, where Electron's missing
  // permission model matters most: inside the Linux OS layer /tmp and the home folder are emptied, and
  // the checkout may lie in /tmp (a CI clone), where the stand-in's log would not be seen.
  dir = mkdtempSync(join(repoRoot, '.rlm-failclosed-'));
  runtime = join(dir, 'node');
  log = join(dir, 'starts.log');
  writeFileSync(runtime, `#!/bin/sh\necho "$*" >> '${log}'\necho "node: bad option: --experimental-permission" >&2\nexit 9\n`);
  chmodSync(runtime, 0o755);
});
after(() => rmSync(dir, { recursive: true, force: true }));

const starts = (): string[] => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);

test('a permission flag the runtime refuses ends the start with the one sentence; nothing is started again without it', async () => {
  await assert.rejects(startSession({ execPath: runtime, osIsolation: false }), (error: unknown) => {
    assert.ok(error instanceof WeakSandboxError, String(error));
    assert.match(error.message, /Node's permission model failed to start \(node: bad option: --experimental-permission\).*rlm\.sandbox\.allowWeaker/);
    return true;
  });
  assert.equal(starts().length, 1, `started ${starts().length} times`);
  assert.match(starts()[0]!, /--experimental-permission|--permission/);
});

test('control: once the weaker sandbox is accepted, the start is retried without the flag', async () => {
  rmSync(log, { force: true });
  await assert.rejects(startSession({ execPath: runtime, osIsolation: false, allowWeakerSandbox: true }));
  const all = starts();
  assert.ok(all.length >= 2, `started ${all.length} times`);
  assert.doesNotMatch(all[1]!, /permission/, 'the second start left the permission flag out');
});
