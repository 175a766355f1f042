// How the REPL process is started: layer 2's Node flags, and layer 3's operating-system wrapper.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFlagRejection, isOsIsolationRejection, planLaunch } from '../../../../src/core/repl/replLaunch';
import type { LaunchInputs } from '../../../../src/core/repl/replLaunch';
import { join, resolve } from 'node:path';

const base: LaunchInputs = {
  distDir: '/ext/dist', usePermissionModel: true, useOsIsolation: false, isElectron: false, platform: 'linux', execPath: '/usr/bin/node',
  nodeFlags: new Set(['--experimental-permission', '--disable-warning']), which: (p) => `/usr/bin/${p}`,
};

test('Node 20 gets --experimental-permission with one read grant per REPL file, workers allowed, nothing for the snapshot cache, and V8 without helper threads', () => {
  const plan = planLaunch(base);
  assert.deepEqual(plan.execArgv, [
    '--disallow-code-generation-from-strings',
    '--single-threaded',
    '--experimental-permission',
    '--allow-fs-read=/ext/dist/replProcess.js',
    '--allow-fs-read=/ext/dist/replWorker.js',
    '--allow-fs-read=/ext/dist/esmGuardHooks.mjs',
    '--allow-fs-read=/ext/dist/pyodide/*',
    '--allow-worker',
    '--disable-warning=ExperimentalWarning',
    '--disable-warning=SecurityWarning',
  ]);
  assert.equal(plan.command, '/usr/bin/node');
  assert.deepEqual(plan.args, [...plan.execArgv, '/ext/dist/replProcess.js']);
  assert.deepEqual(plan.env, {});
  assert.deepEqual(plan.notes, []);
});

test('newer Node uses --permission; without a permission model the plan says so', () => {
  assert.equal(planLaunch({ ...base, nodeFlags: new Set(['--permission']) }).permissionFlag, '--permission');
  const none = planLaunch({ ...base, nodeFlags: new Set() });
  assert.deepEqual(none.execArgv, ['--disallow-code-generation-from-strings', '--single-threaded']);
  assert.match(none.notes[0] ?? '', /no permission model/);
  const off = planLaunch({ ...base, usePermissionModel: false, nodeFlags: new Set(['--permission']) });
  assert.equal(off.permissionFlag, undefined);
  assert.match(off.notes[0] ?? '', /turned off/);
});

test('under Electron the only environment variable is ELECTRON_RUN_AS_NODE', () => {
  assert.deepEqual(planLaunch({ ...base, isElectron: true, nodeFlags: new Set() }).env, { ELECTRON_RUN_AS_NODE: '1' });
});

test('on Linux the process runs in new user, network and mount namespaces, with socket folders emptied and no shell variables', () => {
  const plan = planLaunch({ ...base, useOsIsolation: true });
  assert.equal(plan.os.kind, 'linux-namespaces');
  assert.equal(plan.command, '/usr/bin/unshare');
  assert.deepEqual(plan.args.slice(0, 6), ['--user', '--map-root-user', '--net', '--mount', '--', '/usr/bin/sh']);
  const script = plan.args[7]!;
  assert.ok(plan.os.hidden.includes('/tmp'), 'the temporary folder (X11, VS Code and agent sockets) is hidden');
  assert.match(script, /mount -t tmpfs .* '\/tmp'/);
  assert.match(script, /unset PWD OLDPWD SHLVL _ staged; exec "\$@"$/);
  assert.deepEqual(plan.args.slice(8, 10), ['rlm-repl', '/usr/bin/node']);
  assert.equal(plan.args.at(-1), '/ext/dist/replProcess.js');
});

test('a socket folder that holds the REPL files is still emptied: only those files are bound back into it', () => {
  const plan = planLaunch({ ...base, useOsIsolation: true, distDir: '/tmp/build/dist', execPath: '/tmp/node-v20/bin/node' });
  assert.ok(plan.os.hidden.includes('/tmp'), JSON.stringify(plan.os));
  assert.deepEqual(plan.os.notes, []);
  const script = plan.args[7]!;
  // Staged in the first plain folder, and only when its tmpfs is really there.
  const staging = plan.os.hidden[0]!;
  assert.notEqual(staging, '/tmp');
  assert.match(script, new RegExp(`staged=0; /usr/bin/mount -t tmpfs [^;]* '${staging}' 2>/dev/null && staged=1`));
  assert.match(script, /if \[ "\$staged" = 1 \]/);
  assert.match(script, /--bind '\/tmp\/build\/dist' '[^']*\.rlm-keep-0-0'/);
  assert.match(script, /--bind '\/tmp\/node-v20\/bin\/node' '[^']*\.rlm-keep-0-1'/);
  assert.match(script, /mount -t tmpfs [^;]* '\/tmp' 2>\/dev\/null; then/);
  assert.match(script, /--bind '[^']*\.rlm-keep-0-0' '\/tmp\/build\/dist'/);
  assert.match(script, /\|\| \/usr\/bin\/umount -l '\/tmp'/, 'a failed bind-back shows the folder again rather than breaking the start');
});

test('a socket folder that is itself the REPL folder, or with nowhere to stage, stays visible and the plan says why', () => {
  const whole = planLaunch({ ...base, useOsIsolation: true, distDir: '/tmp' });
  assert.ok(!whole.os.hidden.includes('/tmp'));
  assert.ok(whole.os.notes.some((n) => /\/tmp stays visible: the REPL needs all of it/.test(n)));
  const noTools = planLaunch({ ...base, useOsIsolation: true, which: (p) => (p === 'mount' ? undefined : `/usr/bin/${p}`) });
  assert.deepEqual(noTools.os.hidden, []);
  assert.ok(noTools.os.notes.some((n) => /socket folders stay visible/.test(n)));
  assert.match(noTools.args[7]!, /^unset PWD OLDPWD SHLVL _ staged; exec "\$@"$/);
});

test('macOS uses sandbox-exec with a profile that denies the network; elsewhere, or without the tools, the layer is off with a reason', () => {
  const mac = planLaunch({ ...base, useOsIsolation: true, platform: 'darwin' });
  assert.equal(mac.os.kind, 'macos-sandbox');
  assert.equal(mac.command, '/usr/bin/sandbox-exec');
  assert.match(mac.args[1]!, /\(deny network\*\)/);
  const windows = planLaunch({ ...base, useOsIsolation: true, platform: 'win32' });
  assert.equal(windows.os.kind, 'none');
  assert.equal(windows.command, '/usr/bin/node');
  assert.match(windows.os.notes[0]!, /Windows: no operating-system sandbox/);
  const noUnshare = planLaunch({ ...base, useOsIsolation: true, which: () => undefined });
  assert.equal(noUnshare.os.kind, 'none');
  assert.match(noUnshare.os.notes[0]!, /unshare/);
  const turnedOff = planLaunch(base);
  assert.equal(turnedOff.os.kind, 'none');
  assert.match(turnedOff.os.notes[0]!, /turned off \(it failed to start and a weaker sandbox was accepted/);
});

test('flag and sandbox rejections are recognised in the child stderr', () => {
  assert.equal(isFlagRejection('node: bad option: --permission'), true);
  assert.equal(isFlagRejection('SyntaxError: nope'), false);
  assert.equal(isOsIsolationRejection('unshare: unshare failed: Operation not permitted'), true);
  assert.equal(isOsIsolationRejection('sandbox-exec: sandbox_apply: Operation not permitted'), true);
  assert.equal(isOsIsolationRejection('ReferenceError: x'), false);
});

test('Linux: the home folder is emptied too, with only the REPL files under it bound back; never `/` or the folder of all homes', () => {
  // A real folder outside /tmp stands for the home (the plan only empties folders that exist).
  const home = resolve(__dirname, '..', '..', '..', '..');
  const installed = planLaunch({ ...base, useOsIsolation: true, homeDir: home, distDir: join(home, 'dist'), execPath: join(home, 'bin', 'node') });
  assert.ok(installed.os.hidden.includes(home), JSON.stringify(installed.os));
  const script = installed.args[7]!;
  assert.ok(script.includes(`mount --bind '${join(home, 'dist')}'`), script);
  assert.ok(script.includes(`: > '${join(home, 'bin', 'node')}'`) || script.includes(`&& : > '${join(home, 'bin', 'node')}'`), 'Node alone is kept as a file');
  const electron = planLaunch({ ...base, useOsIsolation: true, isElectron: true, homeDir: home, distDir: join(home, 'dist'), execPath: join(home, 'VSCode-linux-x64', 'code') });
  assert.ok(electron.args[7]!.includes(`mkdir -p '${join(home, 'VSCode-linux-x64')}'`), 'Electron keeps the folder beside its binary');
  for (const homeDir of ['/', '/home', '/Users']) assert.ok(!planLaunch({ ...base, useOsIsolation: true, homeDir }).os.hidden.includes(homeDir), homeDir);
  assert.ok(!planLaunch({ ...base, useOsIsolation: true }).os.hidden.includes(home), 'no home given, none emptied');
});
