// judgeTestRun (scripts/testRunReporter.mjs), which both runners use, on the summaries the reporter
// writes: the integration run's cases (a UI spec with no test, a spec never loaded, a skipped subtest
// of the extension-host wrapper) without starting code-server; and the runner's refusal of a filter in CI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { judgeTestRun } from '../../../scripts/testRunReporter.mjs';

const SPEC = '/repo/test/integration/ui/specs/palette.test.ts';
const EMPTY_SPEC = '/repo/test/integration/ui/specs/forgotten.test.ts';
const WRAPPER = '/repo/test/integration/extensionHost/extensionHost.test.ts';

function summary(files: Record<string, { tests: number; failed?: number; skipped?: string[]; todo?: string[]; loadFailed?: boolean }>): string {
  const full = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, { failed: 0, skipped: [], todo: [], loadFailed: false, ...v }]));
  return `${JSON.stringify({ files: full })}\n`;
}

test('a run where every requested file ran tests and none skipped has no problem', () => {
  assert.deepEqual(judgeTestRun(summary({ [SPEC]: { tests: 1 }, [WRAPPER]: { tests: 40 } }), [SPEC, WRAPPER]), []);
});

test('a UI spec file that registers no test is a problem, named', () => {
  const problems = judgeTestRun(summary({ [SPEC]: { tests: 1 }, [EMPTY_SPEC]: { tests: 0 } }), [SPEC, EMPTY_SPEC]);
  assert.deepEqual(problems, [`${EMPTY_SPEC}: registers no test, so it checks nothing`]);
});

test('a file that failed to load is already a failure, not also an empty file', () => {
  assert.deepEqual(judgeTestRun(summary({ [SPEC]: { tests: 0, loadFailed: true } }), [SPEC]), []);
});

test('a requested file that never reported is a problem', () => {
  assert.deepEqual(judgeTestRun(summary({ [SPEC]: { tests: 1 } }), [SPEC, EMPTY_SPEC]), [`${EMPTY_SPEC}: never reported (not loaded by the test runner)`]);
});

test('a skipped or todo test is a problem unless skips are allowed', () => {
  const text = summary({ [WRAPPER]: { tests: 3, skipped: ['activation.test.ts: x'], todo: ['y'] } });
  const problems = judgeTestRun(text, [WRAPPER]);
  assert.equal(problems.length, 2);
  assert.match(problems[0] ?? '', /skipped "activation\.test\.ts: x"/);
  assert.match(problems[1] ?? '', /todo "y"/);
  assert.deepEqual(judgeTestRun(text, [WRAPPER], { allowSkips: true }), []);
});

test('a run that wrote no summary is a problem', () => {
  assert.match(judgeTestRun('', [SPEC])[0] ?? '', /wrote no summary/);
});

test('the integration runner refuses RLM_EXT_TEST_GREP in CI before preparing anything', () => {
  const env: NodeJS.ProcessEnv = { ...process.env, CI: 'true', RLM_EXT_TEST_GREP: 'activation' };
  delete env.NODE_TEST_CONTEXT;
  const started = Date.now();
  const result = spawnSync(process.execPath, ['test/integration/runIntegrationTests.mjs', 'harness'], { env, encoding: 'utf8', timeout: 60_000 });
  assert.equal(result.status, 1, result.stdout + result.stderr);
  assert.match(result.stderr, /RLM_EXT_TEST_GREP=activation is set in CI/);
  assert.doesNotMatch(result.stdout, /code-server/);
  assert.ok(Date.now() - started < 30_000);
});
