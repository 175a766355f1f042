// Node-side wrapper: runs the extension-host suite in code-server and reports each of its mocha
// tests as a Node subtest, so that `npm run test:integration` ends with one Node summary covering
// the extension-host tests and the UI specs alike.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundleExtensionHostSuite } from './bundleSuite.mjs';
import { runExtensionHostSuite } from './runInCodeServer';

test('extension-host suite in code-server', { timeout: 15 * 60_000 }, async (t) => {
  // The runner bundles once up front; standalone runs bundle here.
  const indexPath = process.env.RLM_EXT_SUITE_INDEX ?? (await bundleExtensionHostSuite()).indexPath;
  const run = await runExtensionHostSuite({ indexPath, ...(process.env.RLM_EXT_TEST_GREP ? { grep: process.env.RLM_EXT_TEST_GREP } : {}) });
  const results = run.results;
  assert.ok(results, `the suite wrote no results (exit code ${run.exitCode}); see ${run.sessionDir}`);
  for (const result of results.tests) {
    const name = `${result.file}: ${result.fullTitle}`;
    if (result.state === 'pending') {
      await t.test(name, { skip: 'pending in mocha' }, () => undefined);
      continue;
    }
    await t.test(name, () => {
      if (result.state === 'failed') throw new Error(result.error ?? 'failed without an error message');
    });
  }
  assert.deepEqual(results.loadErrors, [], 'suite files failed to load');
  assert.ok(results.tests.length > 0, 'the extension-host suite ran no tests');
  assert.equal(run.exitCode, 0, `the workbench reported exit code ${run.exitCode}; logs in ${run.sessionDir}`);
});
