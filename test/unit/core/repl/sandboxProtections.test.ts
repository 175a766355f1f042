// The sandbox record: layers assembled from what was probed and what the host saw, never from intent;
// the rule that stops a run; and the reading of records written by earlier versions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blockingFailures, emptyProtections, protectionsFrom } from '../../../../src/core/repl/sandboxProtections';
import { protectionsSummary, readProtections } from '../../../../src/core/repl/sandboxReport';
import { planLaunch } from '../../../../src/core/repl/replLaunch';
import type { LaunchInputs } from '../../../../src/core/repl/replLaunch';
import type { ReadyInfo } from '../../../../src/core/repl/replProtocol';

const held = (name: string) => ({ name, held: true, detail: 'held' });
const ready: ReadyInfo = {
  loadMode: 'snapshot', loadMs: 1, pyodideVersion: '1', snapshotKey: '1+k', bridgeTransport: 'pipe', notes: ['from worker'],
  pythonProbes: [held('import js')],
  runtimeProbes: [held("require('node:net')"), { name: 'the fs module Pyodide holds: reading a host file (the Node binary)', held: false, detail: 'opened' }],
  networkProbes: [held('TCP to the host')],
  processProbes: [held('empty environment')],
};
const inputs: LaunchInputs = {
  distDir: '/ext/dist', usePermissionModel: true, useOsIsolation: true, nodeFlags: new Set(['--experimental-permission']),
  isElectron: false, platform: 'linux', execPath: '/usr/bin/node', which: (p) => `/usr/bin/${p}`,
};

test('a layer is on only when every probe held, and the failing probe is kept with its detail', () => {
  const p = protectionsFrom(ready, { plan: planLaunch(inputs), canaryReached: false, fresh: true });
  assert.deepEqual(p.layers.map((l) => [l.id, l.on]), [['python', true], ['runtime', false], ['os', true], ['process', true]]);
  assert.deepEqual(p.notes, ['from worker']);
  assert.match(protectionsSummary(p), /layer 2 OFF \(the fs module Pyodide holds: reading a host file \(the Node binary\): opened\); layers 1, 3, 4 on/);
});

test("the host's own canary overrides a process that claims it had no network", () => {
  const p = protectionsFrom(ready, { plan: planLaunch(inputs), canaryReached: true, fresh: true });
  const os = p.layers.find((l) => l.id === 'os');
  assert.equal(os?.on, false);
  assert.ok(os?.probes.some((x) => /canary listener saw this process/.test(x.name) && !x.held));
});

test('without an OS sandbox, layer 3 is off with the reason; a reused process turns layer 4 off', () => {
  const p = protectionsFrom(ready, { plan: planLaunch({ ...inputs, platform: 'win32' }), canaryReached: false, fresh: false });
  const os = p.layers.find((l) => l.id === 'os')!;
  assert.equal(os.on, false);
  assert.match(os.notes.join(' '), /Windows: no operating-system sandbox/);
  assert.equal(p.layers.find((l) => l.id === 'process')?.on, false);
});

test('a run may start only when layer 1 and the network and stack-trace part of layer 2 held', () => {
  const withoutPermission = { ...ready, runtimeProbes: [held("require('node:net')"), held('the fs module Pyodide holds: reading a host file')], permissionProbes: [{ name: 'permission model: process.permission present', held: false, detail: 'absent' }] };
  const ok = protectionsFrom(withoutPermission, { plan: planLaunch(inputs), canaryReached: true, fresh: true });
  assert.deepEqual(blockingFailures(ok), [], 'a reachable host (layer 3) or the permission model missing do not block here (the two-layer rule counts them)');
  assert.equal(ok.layers.find((l) => l.id === 'runtime')?.on, true, "layer 2 is its lockdown's probes; the permission model is reported with it");
  assert.match(ok.layers.find((l) => l.id === 'runtime')!.notes.join(' '), /permission model is NOT in force/);
  // Layer 2's own file lockdown no longer leans on the permission model: its failure blocks.
  assert.deepEqual(blockingFailures(protectionsFrom(ready, { plan: planLaunch(inputs), canaryReached: false, fresh: true })), ['runtime: the fs module Pyodide holds: reading a host file (the Node binary) (opened)']);
  const leaky = protectionsFrom({ ...ready, runtimeProbes: [{ name: "import('node:net')", held: false, detail: 'loaded' }] }, { plan: planLaunch(inputs), canaryReached: false, fresh: true });
  assert.deepEqual(blockingFailures(leaky), ["runtime: import('node:net') (loaded)"]);
  const bridged = protectionsFrom({ ...withoutPermission, pythonProbes: [{ name: 'no JS object reachable', held: false, detail: 'found JsProxy' }] }, { plan: planLaunch(inputs), canaryReached: false, fresh: true });
  assert.deepEqual(blockingFailures(bridged), ['python: no JS object reachable (found JsProxy)']);
  assert.deepEqual(blockingFailures({ ...ok, layers: ok.layers.map((l) => ({ ...l, probes: [] })) }), ['python: not probed', 'runtime: not probed']);
});

test('before start nothing is claimed', () => {
  const p = emptyProtections();
  assert.equal(p.layers.filter((l) => l.on).length, 0);
  assert.equal(p.layers.length, 4);
});

test("an earlier version's flat booleans read as claims, with layer 1 off and the reason given", () => {
  const old = { separateProcess: true, emptyEnvironment: true, codeGenerationFromStringsDisallowed: true, permissionModel: true, jsGlobalsRestricted: true, pyodideJsUnregistered: true, networkApisRemoved: true, notes: ['n'] };
  const p = readProtections(old)!;
  assert.equal(p.version, 2);
  assert.equal(p.layers.every((l) => !l.on), true, 'nothing was probed then, so no layer is shown as on');
  assert.match(p.layers[0]!.notes[0]!, /earlier version.*without probing/);
  assert.ok(p.layers[0]!.probes.every((x) => x.detail === 'claimed by the record, not probed'));
  assert.deepEqual(p.notes, ['n']);
  assert.equal(readProtections('nonsense'), undefined);
  assert.equal(readProtections({ version: 2, layers: [{ id: 'python', on: 'yes', probes: [{ name: 1 }] }] })!.layers[0]!.on, false, 'only a real true is on');
});
