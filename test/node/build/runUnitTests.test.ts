// scripts/runUnitTests.mjs, run as `npm test` runs it, on small test files made to look green to Node:
// a skipped test, a todo, a file that registers no test. Each must fail the run with a sentence naming
// the file; a file whose test runs stays green. RLM_ALLOW_SKIPS=1 lets skips through locally, never in CI.
// And the unit tier starts nothing: a file outside test/node/ that starts a process or a worker fails.
// A unit run shares a few processes between its files: each file is still judged, failed and hooked alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';

const FIXTURES = 'test/fixtures/testRuns';

function runUnitTests(fixture: string | string[], env: Record<string, string> = {}): { status: number | null; output: string } {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // This test runs under Node's test runner, which marks its children as its own; the run under test
  // is a top-level run of its own.
  delete childEnv.NODE_TEST_CONTEXT;
  if (!('CI' in env)) delete childEnv.CI;
  const files = (Array.isArray(fixture) ? fixture : [fixture]).map((name) => `${FIXTURES}/${name}`);
  const result = spawnSync(process.execPath, ['scripts/runUnitTests.mjs', ...files], { env: childEnv, encoding: 'utf8', timeout: 60_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

test('a file whose test runs and passes is green', () => {
  const run = runUnitTests('passing.ts');
  assert.equal(run.status, 0, run.output);
  assert.doesNotMatch(run.output, /cannot count as green/);
});

test('a skipped test fails the run, naming the test and the file', () => {
  const run = runUnitTests('skipped.ts');
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /skipped\.ts: skipped "is skipped \(not today\)"/);
});

test('a todo test fails the run', () => {
  const run = runUnitTests('todo.ts');
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /todo\.ts: todo "will be written one day"/);
});

test('a file that registers no test fails the run', () => {
  const run = runUnitTests('empty.ts');
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /empty\.ts: registers no test/);
});

test('RLM_ALLOW_SKIPS=1 lets a skip through on a local run, but not in CI, and never an empty file', () => {
  assert.equal(runUnitTests('skipped.ts', { RLM_ALLOW_SKIPS: '1' }).status, 0);
  const ci = runUnitTests('skipped.ts', { RLM_ALLOW_SKIPS: '1', CI: 'true' });
  assert.equal(ci.status, 1, ci.output);
  assert.match(ci.output, /skipped "is skipped/);
  assert.equal(runUnitTests('empty.ts', { RLM_ALLOW_SKIPS: '1' }).status, 1);
});

test('a folder with no *.test.ts file under it fails before running anything', () => {
  // The fixtures folder itself: its files are run only when named.
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  const result = spawnSync(process.execPath, ['scripts/runUnitTests.mjs', FIXTURES], { encoding: 'utf8', env });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /No test files found/);
});

test('a unit test that starts a child process fails, saying where such a test belongs', () => {
  const run = runUnitTests('startsProcess.ts');
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /ProcessStartInUnitTest: child_process\.spawnSync .* in a unit test/);
  assert.match(run.output, /Move this file to test\/node\//);
});

test('a unit test that starts a worker thread fails too', () => {
  const run = runUnitTests('startsWorker.ts');
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /ProcessStartInUnitTest: new Worker/);
});

test('files that share a process are each judged alone: the empty one and the skipping one are named, not the others', () => {
  const run = runUnitTests(['passing.ts', 'empty.ts', 'skipped.ts', 'todo.ts'], { RLM_UNIT_PROCESSES: '1' });
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /empty\.ts: registers no test/);
  assert.match(run.output, /skipped\.ts: skipped "is skipped \(not today\)"/);
  assert.match(run.output, /todo\.ts: todo "will be written one day"/);
  assert.doesNotMatch(run.output, /passing\.ts: /);
  assert.match(run.output, /ℹ tests 5\n/, 'the same tests as one process per file would count');
});

test('in a shared process, a file that fails to load fails alone, and the top-level hooks of a file stay its own', () => {
  const run = runUnitTests(['failsToLoad.ts', 'hooksAtTopLevel.ts', 'hooksNotLeaked.ts', 'passing.ts'], { RLM_UNIT_PROCESSES: '1' });
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /Error: this file cannot load\n\s+at .*failsToLoad\.ts:6:7/, 'the stack trace names the .ts line');
  assert.match(run.output, /✔ runs without the hook of another file/);
  assert.match(run.output, /✔ adds/);
  assert.match(run.output, /ℹ pass 3\n/);
});

test('a unit test that starts a process is named, even when its process runs other files', () => {
  const run = runUnitTests(['passing.ts', 'startsProcess.ts'], { RLM_UNIT_PROCESSES: '1' });
  assert.equal(run.status, 1, run.output);
  assert.match(run.output, /A unit test tried to start: child_process\.spawnSync .* from \S*startsProcess\.ts/);
  assert.match(run.output, /✔ adds/);
});
