import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFlagRejection, planLaunch } from '../../../../src/core/repl/replLaunch';

const base = { distDir: '/ext/dist', extraReadPaths: ['/cache/pyodide-1.snapshot'], usePermissionModel: true, isElectron: false };

test('Node 20 gets --experimental-permission with one read grant per path and workers allowed', () => {
  const plan = planLaunch({ ...base, nodeFlags: new Set(['--experimental-permission', '--disable-warning']) });
  assert.deepEqual(plan.execArgv, [
    '--disallow-code-generation-from-strings',
    '--experimental-permission',
    '--allow-fs-read=/ext/dist/replProcess.js',
    '--allow-fs-read=/ext/dist/replWorker.js',
    '--allow-fs-read=/ext/dist/pyodide/*',
    '--allow-fs-read=/cache/pyodide-1.snapshot',
    '--allow-worker',
    '--disable-warning=ExperimentalWarning',
  ]);
  assert.deepEqual(plan.env, {});
  assert.deepEqual(plan.notes, []);
});

test('newer Node uses --permission; without a permission model the plan says so', () => {
  assert.equal(planLaunch({ ...base, nodeFlags: new Set(['--permission']) }).permissionFlag, '--permission');
  const none = planLaunch({ ...base, nodeFlags: new Set() });
  assert.deepEqual(none.execArgv, ['--disallow-code-generation-from-strings']);
  assert.match(none.notes[0] ?? '', /no permission model/);
  const off = planLaunch({ ...base, usePermissionModel: false, nodeFlags: new Set(['--permission']) });
  assert.equal(off.permissionFlag, undefined);
  assert.match(off.notes[0] ?? '', /turned off/);
});

test('under Electron the only environment variable is ELECTRON_RUN_AS_NODE', () => {
  assert.deepEqual(planLaunch({ ...base, isElectron: true, nodeFlags: new Set() }).env, { ELECTRON_RUN_AS_NODE: '1' });
});

test('flag rejections are recognised in the child stderr', () => {
  assert.equal(isFlagRejection('node: bad option: --permission'), true);
  assert.equal(isFlagRejection('SyntaxError: nope'), false);
});
