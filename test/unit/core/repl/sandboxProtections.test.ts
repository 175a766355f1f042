import { test } from 'node:test';
import assert from 'node:assert/strict';
import { emptyProtections, protectionsFrom } from '../../../../src/core/repl/sandboxProtections';
import type { ReadyInfo } from '../../../../src/core/repl/replProtocol';

const ready: ReadyInfo = {
  loadMode: 'snapshot', loadMs: 1, pyodideVersion: '1', snapshotKey: '1+k', permissionModel: false, jsGlobalsRestricted: true,
  pyodideJsUnregistered: true, networkApisRemoved: true, codeGenerationFromStringsDisallowed: false, bridgeTransport: 'pipe', notes: ['from worker'],
};

test('protections mirror what the child found, and every gap gets a note', () => {
  const p = protectionsFrom(ready, ['from plan'], { ELECTRON_RUN_AS_NODE: '1' });
  assert.equal(p.permissionModel, false);
  assert.equal(p.codeGenerationFromStringsDisallowed, false);
  assert.equal(p.separateProcess, true);
  assert.deepEqual(p.notes.slice(0, 2), ['from plan', 'from worker']);
  assert.ok(p.notes.some((n) => n.includes('ELECTRON_RUN_AS_NODE')));
  assert.ok(p.notes.some((n) => n.includes('code generation from strings is still allowed')));
});

test('before start nothing is claimed', () => {
  const p = emptyProtections();
  assert.equal(Object.entries(p).filter(([k, v]) => k !== 'notes' && v === true).length, 0);
});
