// The two-layer rule, counted from probes: a run needs two independent layers for host files and two for
// the network. Each platform's usual case, and each layer missing, gives the count and the one sentence.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxStrength, WeakSandboxError } from '../../../../src/core/repl/sandboxStrength';
import { protectionsFrom } from '../../../../src/core/repl/sandboxProtections';
import { protectionsSummary, readProtections } from '../../../../src/core/repl/sandboxReport';
import { planLaunch } from '../../../../src/core/repl/replLaunch';
import type { LaunchInputs } from '../../../../src/core/repl/replLaunch';
import type { ReadyInfo } from '../../../../src/core/repl/replProtocol';
import type { SandboxProbe } from '../../../../src/core/repl/replTypes';

const held = (name: string): SandboxProbe => ({ name, held: true, detail: 'held' });
const failed = (name: string, detail: string): SandboxProbe => ({ name, held: false, detail });
const permissionHeld = [held('permission model: process.permission present'), held('permission model: a read outside the bundle is refused')];
const permissionAbsent = [failed('permission model: process.permission present', 'absent in Electron 42 run as Node'), failed('permission model: a read outside the bundle is refused', 'the file was opened')];
const ready = (over: Partial<ReadyInfo> = {}): ReadyInfo => ({
  loadMode: 'snapshot', loadMs: 1, pyodideVersion: '1', snapshotKey: 'k', bridgeTransport: 'pipe', notes: [],
  pythonProbes: [held('import js')],
  runtimeProbes: [held("require('node:net')"), held('the fs module Pyodide holds: reading a host file')],
  networkProbes: [held('TCP to the host')],
  processProbes: [held('empty environment')],
  permissionProbes: permissionHeld,
  ...over,
});
const linux: LaunchInputs = {
  distDir: '/ext/dist', usePermissionModel: true, useOsIsolation: true, nodeFlags: new Set(['--permission']),
  isElectron: false, platform: 'linux', execPath: '/usr/bin/node', which: (p) => `/usr/bin/${p}`,
};

function strengthOf(r: ReadyInfo, inputs: LaunchInputs, canaryReached = false) {
  const plan = planLaunch(inputs);
  return sandboxStrength(protectionsFrom(r, { plan, canaryReached, fresh: true }), plan.os.kind);
}

test('Linux, everything held: files behind the lockdown and the permission model, the network behind the lockdown and the namespaces', () => {
  const s = strengthOf(ready(), linux);
  assert.deepEqual(s.file, ['layer 2 (the REPL runtime lockdown)', "Node's permission model"]);
  assert.deepEqual(s.network, ['layer 2 (the REPL runtime lockdown)', 'layer 3 (Linux namespaces)']);
  assert.deepEqual(s.missing, []);
});

test('an Electron that accepts the permission flag but does not honour it leaves host files behind one layer', () => {
  const s = strengthOf(ready({ permissionProbes: permissionAbsent }), { ...linux, isElectron: true });
  assert.deepEqual(s.file, ['layer 2 (the REPL runtime lockdown)']);
  assert.equal(s.missing.length, 1);
  assert.match(s.missing[0]!, /^for host files only layer 2 \(the REPL runtime lockdown\) holds \(Node's permission model is not in force: permission model: process.permission present: absent in Electron 42/);
});

test('the OS layer counted from its probes and the canary, never from the plan', () => {
  const reached = strengthOf(ready(), linux, true);
  assert.deepEqual(reached.network, ['layer 2 (the REPL runtime lockdown)']);
  assert.match(reached.missing.join(' '), /for the network only layer 2 .* holds \(layer 3 \(Linux namespaces\) is not in force: the host's canary listener saw this process connect/);
});

test('Windows has no OS layer: the network is behind one layer, said with the reason', () => {
  const s = strengthOf(ready(), { ...linux, platform: 'win32' });
  assert.deepEqual(s.file.length, 2);
  assert.deepEqual(s.network, ['layer 2 (the REPL runtime lockdown)']);
  assert.match(s.missing[0]!, /for the network only layer 2 .* holds \(layer 3 is not in force: Windows: no operating-system sandbox/);
});

test('macOS: the profile counts for files and the network once its network probes held', () => {
  const s = strengthOf(ready({ permissionProbes: permissionAbsent }), { ...linux, platform: 'darwin', execPath: '/usr/local/bin/node' });
  assert.deepEqual(s.file, ['layer 2 (the REPL runtime lockdown)', 'layer 3 (the macOS sandbox profile)']);
  assert.deepEqual(s.network, ['layer 2 (the REPL runtime lockdown)', 'layer 3 (the macOS sandbox profile)']);
  assert.deepEqual(s.missing, []);
});

test('no lockdown, no permission model, no OS layer: nothing holds for either', () => {
  const s = strengthOf(ready({ runtimeProbes: [failed('weakened', 'not applied')], permissionProbes: permissionAbsent }), { ...linux, useOsIsolation: false });
  assert.deepEqual([s.file, s.network], [[], []]);
  assert.equal(s.missing.length, 2);
  assert.match(s.missing[0]!, /^for host files no layer holds/);
});

test('the refusal is one sentence naming what is missing, the setting and the flag; the record keeps an accepted weaker sandbox', () => {
  const s = strengthOf(ready(), { ...linux, platform: 'win32' });
  const error = new WeakSandboxError(s.missing);
  assert.equal(error.errorKind, 'sandbox');
  assert.equal(error.message.split('. ').length, 1, error.message);
  assert.match(error.message, /^No model-written code will run, because the REPL sandbox has fewer than two independent layers for the network .*rlm\.sandbox\.allowWeaker.*--allow-weaker-sandbox/);
  const plan = planLaunch({ ...linux, platform: 'win32' });
  const p = { ...protectionsFrom(ready(), { plan, canaryReached: false, fresh: true }), strength: { ...s, acceptedWeaker: true } };
  const read = readProtections(JSON.parse(JSON.stringify(p)));
  assert.deepEqual(read?.strength, { ...s, acceptedWeaker: true });
  assert.match(protectionsSummary(read!), /^WEAKER SANDBOX ACCEPTED \(for the network only layer 2/);
});
