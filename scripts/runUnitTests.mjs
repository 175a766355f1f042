// Runs a tier of Node tests with Node's own test runner: by default every test/unit/**/*.test.ts
// (`npm run test:unit`), or the files and folders named, e.g. test/node (`npm run test:node`: the tests
// that start the REPL, the built CLI or another program).
// Node 20 has no glob support in `node --test`, so the files are listed here.
// TypeScript: a unit run compiles the repository's sources once, before the tests (only the files
// changed since the last run; scripts/compileTestSources.mjs), and each test process loads the compiled
// JavaScript under the .ts paths (scripts/compiledTsRequire.cjs), with source maps for stack traces.
// Starting a TypeScript loader in every test process cost more than most tests take. The node tier keeps
// tsx: its tests start programs of their own through it.
// The unit tier starts no process and no worker: unless every file lies under test/node/ (testTier.mjs),
// each test file runs with scripts/unitTierGuard.cjs preloaded, which fails any child process or worker
// it starts. A run that cannot prove it tested something fails even when Node calls it green: an empty list, a file that registers no
// test, a skipped or todo test (see testRunReporter.mjs). RLM_ALLOW_SKIPS=1 lets skips through on a
// local run (a platform a test does not apply to); CI ignores it.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { compiledSourcesDir, compileTestSources, stopCompiler } from './compileTestSources.mjs';
import { judgeTestRun } from './testRunReporter.mjs';
import { testTier, UNIT_TIER_GUARD } from './testTier.mjs';

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
const tier = testTier(files);
console.log(`Running ${files.length} test files (${tier} tier): ${files.map((f) => relative('.', f)).join(' ')}`);
const summaryDir = mkdtempSync(join(tmpdir(), 'rlm-unit-run-'));
const summaryFile = join(summaryDir, 'summary.jsonl');
const reporter = new URL('./testRunReporter.mjs', import.meta.url).href;
const root = resolve(new URL('..', import.meta.url).pathname);
let typeScript = ['--import', 'tsx'];
const env = { ...process.env, RLM_TEST_TIER: tier };
if (tier === 'unit') {
  const compiledDir = compiledSourcesDir(root);
  const started = Date.now();
  const { files: sources, compiled } = await compileTestSources({ root, outDir: compiledDir });
  // esbuild's service process is not needed during the tests: stopped, it neither waits idle nor outlives the run.
  await stopCompiler();
  console.log(`Compiled ${compiled} of ${sources} TypeScript files (the others were unchanged) in ${Date.now() - started} ms`);
  typeScript = ['--require', './scripts/compiledTsRequire.cjs', '--enable-source-maps'];
  env.RLM_COMPILED_TS_DIR = compiledDir;
}
const result = spawnSync(
  process.execPath,
  ['--require', './scripts/pyTextRequire.cjs', ...(tier === 'unit' ? ['--require', UNIT_TIER_GUARD] : []), ...typeScript, '--test', '--test-concurrency=2', '--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${reporter}`, `--test-reporter-destination=${summaryFile}`, ...files],
  { stdio: 'inherit', env },
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
