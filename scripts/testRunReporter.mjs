// A second reporter for Node's test runner, beside the spec reporter people read: it writes one JSON
// line saying, per test file, how many tests ran and which were skipped or left as todo. The runners
// (scripts/runUnitTests.mjs, test/integration/runIntegrationTests.mjs) read it with `judgeTestRun`,
// because Node counts a skipped test, a todo, or a file that registers no test at all as passing.
//
// Node reports each file as a test named by the file's path, and the file's own tests beside it with
// the same `file`; a file whose only event is its own registered no test. A unit run shares processes
// between files and reports each file as a suite named by its path (scripts/unitTestShard.cjs).
import { fileURLToPath } from 'node:url';

/** Where the unit tier's suites, one per test file, are declared (see unitTestShard.cjs). */
const SHARD_DRIVER = fileURLToPath(new URL('./unitTestShard.cjs', import.meta.url));

/** Summary of one run: per file (absolute path), the tests that ran and those skipped or todo. */
function summarize(events) {
  const files = {};
  const entry = (file) => (files[file] ??= { tests: 0, failed: 0, skipped: [], todo: [], loadFailed: false });
  for (const { type, data } of events) {
    if ((type !== 'test:pass' && type !== 'test:fail') || !data.file) continue;
    if (data.name === data.file || data.file === SHARD_DRIVER) {
      // In a unit run the file is the suite scripts/unitTestShard.cjs names by the file's path.
      const file = entry(data.name);
      // The file itself: it fails when it could not be loaded or exited badly.
      if (type === 'test:fail') file.loadFailed = true;
      continue;
    }
    const file = entry(data.file);
    file.tests += 1;
    if (type === 'test:fail') file.failed += 1;
    if (data.skip !== undefined && data.skip !== false) file.skipped.push(`${data.name}${typeof data.skip === 'string' ? ` (${data.skip})` : ''}`);
    if (data.todo !== undefined && data.todo !== false) file.todo.push(`${data.name}${typeof data.todo === 'string' ? ` (${data.todo})` : ''}`);
  }
  return { files };
}

export default async function* testRunReporter(source) {
  const events = [];
  for await (const event of source) {
    if (event.type === 'test:pass' || event.type === 'test:fail') events.push({ type: event.type, data: { file: event.data.file, name: event.data.name, skip: event.data.skip, todo: event.data.todo } });
  }
  yield `${JSON.stringify(summarize(events))}\n`;
}

/**
 * What is wrong with a run that Node would call green: a requested file that never reported, a file
 * that registered no test, a skipped test, a todo. Returns one sentence per problem (empty: all good).
 * `allowSkips` (a local run on a platform a test does not apply to) lets skips and todos through.
 */
export function judgeTestRun(summaryText, requestedFiles, { allowSkips = false } = {}) {
  const line = summaryText.trim().split('\n').filter(Boolean).pop();
  if (!line) return ['the test run wrote no summary: it ended before reporting (see the output above)'];
  const { files } = JSON.parse(line);
  const problems = [];
  for (const requested of requestedFiles) {
    const file = files[requested];
    if (!file) problems.push(`${requested}: never reported (not loaded by the test runner)`);
    else if (file.tests === 0 && !file.loadFailed) problems.push(`${requested}: registers no test, so it checks nothing`);
  }
  if (!allowSkips) {
    for (const [path, file] of Object.entries(files)) {
      for (const name of file.skipped) problems.push(`${path}: skipped "${name}": a skipped test passes silently; make it run, or delete it`);
      for (const name of file.todo) problems.push(`${path}: todo "${name}": a todo test passes silently; write it, or delete it`);
    }
  }
  return problems;
}
