// Node-side wrapper: runs the extension-host suite in code-server and reports each of its mocha
// tests as a Node subtest, so that `npm run test:integration` ends with one Node summary covering
// the extension-host tests and the UI specs alike.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundleExtensionHostSuite } from './bundleSuite.mjs';
import { runExtensionHostSuite } from './runInCodeServer';

test('extension-host suite in code-server', { timeout: 15 * 60_000 }, async (t) => {
  // A filter in CI would turn a partial run green; locally it is how one test is rerun.
  assert.ok(!(process.env.CI && process.env.RLM_EXT_TEST_GREP), `RLM_EXT_TEST_GREP=${process.env.RLM_EXT_TEST_GREP} is set in CI: a filtered run checks only part of the suite`);
  // The runner bundles once up front; standalone runs bundle here.
  const indexPath = process.env.RLM_EXT_SUITE_INDEX ?? (await bundleExtensionHostSuite()).indexPath;
  const run = await runExtensionHostSuite({ indexPath, ...(process.env.RLM_EXT_TEST_GREP ? { grep: process.env.RLM_EXT_TEST_GREP } : {}) });
  const results = run.results;
  assert.ok(results, `the suite wrote no results (exit code ${run.exitCode}); see ${run.sessionDir}`);
  for (const result of results.tests) {
    const name = `${result.file}: ${result.fullTitle}`;
    await t.test(name, () => {
      if (result.state === 'failed') throw new Error(result.error ?? 'failed without an error message');
      // A skipped test would pass silently; it fails instead (the suite also forbids pending tests).
      if (result.state === 'pending') throw new Error('skipped (pending in mocha): make it run, or delete it');
    });
  }
  assert.deepEqual(results.loadErrors, [], 'suite files failed to load');
  assert.ok(results.tests.length > 0, 'the extension-host suite ran no tests');
  assert.equal(run.exitCode, 0, `the workbench reported exit code ${run.exitCode}; logs in ${run.sessionDir}`);
});
