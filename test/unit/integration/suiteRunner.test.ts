// The extension-host suite runner (test/integration/extensionHost/suiteRunner.ts) is plain mocha, so it
// runs here without VS Code: a suite with a skipped test, or with no test, must fail, not pass quietly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSuite } from '../../integration/extensionHost/suiteRunner';
import type { ExtensionHostResults } from '../../integration/extensionHost/extensionHostResults';

/** The BDD globals mocha installs while a suite file loads. */
interface MochaGlobals {
  describe(title: string, body: () => void): void;
  it(title: string, body?: () => void): void;
}

function mochaGlobals(): MochaGlobals {
  return globalThis as unknown as MochaGlobals;
}

async function run(register: () => void): Promise<{ error: unknown; results: ExtensionHostResults }> {
  const resultsFile = join(mkdtempSync(join(tmpdir(), 'rlm-suite-runner-')), 'results.json');
  const previous = process.env.RLM_EXT_TEST_RESULTS;
  process.env.RLM_EXT_TEST_RESULTS = resultsFile;
  let error: unknown;
  try {
    await runSuite([{ file: 'fixture.test.ts', load: register }], { timeoutMs: 5000, grep: '' });
  } catch (err) {
    error = err;
  } finally {
    if (previous === undefined) delete process.env.RLM_EXT_TEST_RESULTS;
    else process.env.RLM_EXT_TEST_RESULTS = previous;
  }
  return { error, results: JSON.parse(readFileSync(resultsFile, 'utf8')) as ExtensionHostResults };
}

test('a suite whose tests pass resolves', async () => {
  const { error, results } = await run(() => mochaGlobals().describe('suite', () => mochaGlobals().it('passes', () => undefined)));
  assert.equal(error, undefined);
  assert.deepEqual(results.tests.map((t) => [t.title, t.state]), [['passes', 'passed']]);
});

test('a pending (skipped) test fails the suite', async () => {
  const { error, results } = await run(() =>
    mochaGlobals().describe('suite', () => {
      mochaGlobals().it('passes', () => undefined);
      mochaGlobals().it('was never written');
    }),
  );
  assert.ok(error instanceof Error, 'the run must reject');
  assert.match(error.message, /1 of 2 extension-host tests failed/);
  const pending = results.tests.find((t) => t.title === 'was never written');
  assert.equal(pending?.state, 'failed');
  assert.match(pending?.error ?? '', /Pending test forbidden/);
});

test('a suite that registers no test fails', async () => {
  const { error } = await run(() => mochaGlobals().describe('empty', () => undefined));
  assert.ok(error instanceof Error);
  assert.match(error.message, /registered no tests/);
});
