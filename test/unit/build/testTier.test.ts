// Which tier a run belongs to decides whether its test files may start processes: only a run of
// test/node/ files may, so a process-starting test left in test/unit/ (or mixed into a unit run) is
// caught by the unit tier's guard.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testTier } from '../../../scripts/testTier.mjs';

test('only a run whose every file lies under test/node/ is the node tier', () => {
  const root = '/repo';
  assert.equal(testTier(['test/node/cli/cliAsk.e2e.test.ts', 'test/node/core/repl/replStart.test.ts'], root), 'node');
  assert.equal(testTier(['test/unit/build/esbuild.test.ts'], root), 'unit');
  assert.equal(testTier(['test/node/cli/cliAsk.e2e.test.ts', 'test/unit/build/esbuild.test.ts'], root), 'unit', 'a mixed run is guarded');
  assert.equal(testTier(['test/fixtures/testRuns/passing.ts'], root), 'unit');
  assert.equal(testTier(['test/nodeish/x.test.ts'], root), 'unit', 'a folder that only starts with "node" is not the tier');
  assert.equal(testTier(['/repo/test/node/x.test.ts'], root), 'node', 'absolute paths too');
  assert.equal(testTier([], root), 'unit');
});
