// The CLI says plainly when a sandbox layer did not hold, and says nothing when every layer did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sandboxWarningLine } from '../../../src/cli/support/eventNotes';
import { allLayersOn } from '../../fakes/fakeProtections';

test('a run whose layers all held gets no warning; one with a layer off gets the layer and the failed probe', () => {
  assert.equal(sandboxWarningLine(allLayersOn()), undefined);
  const p = allLayersOn();
  p.layers[2] = { id: 'os', on: false, probes: [{ name: "TCP to the host's 127.0.0.1:1", held: false, detail: 'connected: the host was reachable' }], notes: [] };
  assert.equal(sandboxWarningLine(p), "rlm: warning: sandbox layer 3 OFF (TCP to the host's 127.0.0.1:1: connected: the host was reachable); layers 1, 2, 4 on (see docs/security.md)");
  assert.match(sandboxWarningLine({ separateProcess: true, emptyEnvironment: true, codeGenerationFromStringsDisallowed: true, permissionModel: true, jsGlobalsRestricted: true, pyodideJsUnregistered: true, networkApisRemoved: true }) ?? '', /layer 1 OFF/);
});

test('a run that used an accepted weaker sandbox is warned about, even with every layer on', () => {
  const p = { ...allLayersOn(), strength: { file: ['layer 2 (the REPL runtime lockdown)'], network: ['a', 'b'], missing: ['for host files only layer 2 (the REPL runtime lockdown) holds'], acceptedWeaker: true } };
  assert.match(sandboxWarningLine(p) ?? '', /^rlm: warning: sandbox WEAKER SANDBOX ACCEPTED \(for host files only layer 2 .*\); all 4 layers on/);
  assert.equal(sandboxWarningLine({ ...p, strength: { ...p.strength, acceptedWeaker: undefined, missing: [] } }), undefined);
});
