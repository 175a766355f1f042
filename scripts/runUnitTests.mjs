// Runs every test/unit/**/*.test.ts with Node's own test runner (through tsx for TypeScript).
// Node 20 has no glob support in `node --test`, so the files are listed here. A run that cannot prove
// it tested something fails even when Node calls it green: an empty list, a file that registers no
// test, a skipped or todo test (see testRunReporter.mjs). RLM_ALLOW_SKIPS=1 lets skips through on a
// local run (a platform a test does not apply to); CI ignores it.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { judgeTestRun } from './testRunReporter.mjs';

function findTests(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...findTests(full));
    else if (/\.test\.ts$/.test(name)) out.push(full);
  }
  return out;
}

const roots = process.argv.slice(2).length ? process.argv.slice(2) : ['test/unit'];
const files = roots.flatMap((r) => (statSync(r).isDirectory() ? findTests(r) : [r])).sort();
if (files.length === 0) {
  console.error(`No test files found under ${roots.join(', ')}`);
  process.exit(1);
}
console.log(`Running ${files.length} test files: ${files.map((f) => relative('.', f)).join(' ')}`);
const summaryDir = mkdtempSync(join(tmpdir(), 'rlm-unit-run-'));
const summaryFile = join(summaryDir, 'summary.jsonl');
const reporter = new URL('./testRunReporter.mjs', import.meta.url).href;
const result = spawnSync(
  process.execPath,
  ['--require', './scripts/pyTextRequire.cjs', '--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${reporter}`, `--test-reporter-destination=${summaryFile}`, ...files],
  { stdio: 'inherit' },
);
let summary = '';
try {
  summary = readFileSync(summaryFile, 'utf8');
} catch {
  // No summary: judged below as a run that ended before reporting.
}
rmSync(summaryDir, { recursive: true, force: true });
const allowSkips = process.env.RLM_ALLOW_SKIPS === '1' && !process.env.CI;
const problems = judgeTestRun(summary, files.map((f) => resolve(f)), { allowSkips });
if (problems.length > 0) {
  console.error(`\nThe run cannot count as green (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  process.exit(1);
}
process.exit(result.status ?? 1);
