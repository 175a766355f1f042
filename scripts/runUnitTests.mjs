// Runs a tier of Node tests with Node's own test runner: by default every test/unit/**/*.test.ts
// (`npm run test:unit`), or the files and folders named, e.g. test/node (`npm run test:node`: the tests
// that start the REPL, the built CLI or another program).
// Node 20 has no glob support in `node --test`, so the files are listed here.
// TypeScript: a unit run compiles the repository's sources once, before the tests (only the files
// changed since the last run; scripts/compileTestSources.mjs), and each test process loads the compiled
// JavaScript under the .ts paths (scripts/compiledTsRequire.cjs), with source maps for stack traces.
// Starting a TypeScript loader in every test process cost more than most tests take. The node tier keeps
// tsx: its tests start programs of their own through it.
// Processes: the node tier runs each file in its own process (its tests start programs and servers);
// the unit tier shares a few processes (one per core, and one more) between all its files (scripts/unitTestShard.cjs),
// each file in a suite of its own, so that ~150 files do not each pay a process start and the loading
// of the same big dependencies. Node's runner still runs them (`node --test` over those processes).
// The unit tier starts no process and no worker: unless every file lies under test/node/ (testTier.mjs),
// each test file runs with scripts/unitTierGuard.cjs preloaded, which fails any child process or worker
// it starts. A run that cannot prove it tested something fails even when Node calls it green: an empty list, a file that registers no
// test, a skipped or todo test (see testRunReporter.mjs). RLM_ALLOW_SKIPS=1 lets skips through on a
// local run (a platform a test does not apply to); CI ignores it.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { compiledSourcesDir, compileTestSources, stopCompiler } from './compileTestSources.mjs';
import { judgeTestRun } from './testRunReporter.mjs';
import { testTier, UNIT_TIER_GUARD } from './testTier.mjs';

/**
 * The unit tier's test processes: `count` small entry files in the run's folder, each running
 * scripts/unitTestShard.cjs over the whole list, from which each process claims the next file when free.
 */
function unitProcessEntries(testFiles, count) {
  const claimsDir = join(summaryDir, 'claims');
  mkdirSync(claimsDir);
  const planFile = join(summaryDir, 'plan.json');
  writeFileSync(planFile, JSON.stringify({ files: testFiles, processes: count, claimsDir }));
  const shard = fileURLToPath(new URL('./unitTestShard.cjs', import.meta.url));
  return Array.from({ length: count }, (_, i) => {
    const entry = join(summaryDir, `unit-process-${i + 1}.cjs`);
    writeFileSync(entry, `require(${JSON.stringify(shard)}).runShard(${JSON.stringify(planFile)}, ${i});\n`);
    return entry;
  });
}

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
// RLM_UNIT_PROCESSES sets how many processes a unit run shares its files between (one, to put every
// file in one process); else one per core and one more: several tests wait in real time on servers of
// their own, and a process that waits leaves its core to the extra one (measured on 2 cores: 3 processes
// beat 2 and 4).
const processes = Number(process.env.RLM_UNIT_PROCESSES) || Math.min(availableParallelism(), 8) + 1;
let entries = files;
if (tier === 'unit') {
  const compiledDir = compiledSourcesDir(root);
  const started = Date.now();
  const { files: sources, compiled } = await compileTestSources({ root, outDir: compiledDir });
  // esbuild's service process is not needed during the tests: stopped, it neither waits idle nor outlives the run.
  await stopCompiler();
  console.log(`Compiled ${compiled} of ${sources} TypeScript files (the others were unchanged) in ${Date.now() - started} ms`);
  typeScript = ['--require', './scripts/compiledTsRequire.cjs', '--enable-source-maps'];
  env.RLM_COMPILED_TS_DIR = compiledDir;
  entries = unitProcessEntries(files.map((f) => resolve(f)), Math.min(processes, files.length));
}
const result = spawnSync(
  process.execPath,
  ['--require', './scripts/pyTextRequire.cjs', ...(tier === 'unit' ? ['--require', UNIT_TIER_GUARD] : []), ...typeScript, '--test', `--test-concurrency=${processes}`, '--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${reporter}`, `--test-reporter-destination=${summaryFile}`, ...entries],
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
