// `npm run test:integration`: prepares code-server (once), packages the extension, bundles the
// extension-host suite, then runs the extension-host wrapper and every UI spec with Node's test
// runner, one file at a time (each starts its own code-server and Chromium). The output ends with
// Node's summary. Arguments narrow the run: `harness`, `extensionHost`, `ui`, or paths of test files.
//
// Environment: RLM_SKIP_PACKAGE=1 reuses rlm-vscode.vsix and dist/ as they are.
//
// A run that cannot prove it tested everything fails even when Node calls it green: a spec file that
// registers no test, a skipped test (a pending mocha test included), and in CI a test filter
// (RLM_EXT_TEST_GREP) that would quietly run part of the suite. See scripts/testRunReporter.mjs.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareCodeServer } from '../../scripts/codeServer/prepare.mjs';
import { judgeTestRun } from '../../scripts/testRunReporter.mjs';
import { bundleExtensionHostSuite } from './extensionHost/bundleSuite.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = resolve(here, '..', '..');
const extensionHostWrapper = join(here, 'extensionHost', 'extensionHost.test.ts');
const harnessSelfTest = join(here, 'harness', 'harnessSelfTest.test.ts');
// Checks that the suite above can fail: it runs it against a deliberately broken build.
const breakageCheck = join(here, 'extensionHost', 'suiteCatchesBreakage.test.ts');
const specsDir = join(here, 'ui', 'specs');

function uiSpecs() {
  const names = readdirSync(specsDir).filter((n) => n.endsWith('.ts'));
  // A spec that does not end in .test.ts would silently never run; refuse instead.
  const misnamed = names.filter((n) => !n.endsWith('.test.ts'));
  if (misnamed.length) throw new Error(`UI specs must be named *.test.ts (helpers belong in test/integration/harness/): ${misnamed.join(', ')}`);
  return names.sort().map((n) => join(specsDir, n));
}

function selectFiles(args) {
  if (args.length === 0) return [harnessSelfTest, extensionHostWrapper, breakageCheck, ...uiSpecs()];
  return args.flatMap((arg) => {
    if (arg === 'harness') return [harnessSelfTest];
    if (arg === 'extensionHost') return [extensionHostWrapper, breakageCheck];
    if (arg === 'ui') return uiSpecs();
    const file = resolve(arg);
    if (!existsSync(file)) throw new Error(`no such test file: ${arg} (expected harness, extensionHost, ui, or a path)`);
    return [file];
  });
}

function run(command, args, options = {}) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd: repoRoot, stdio: 'inherit', ...options });
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise(signal ? 1 : code ?? 1));
  });
}

/** A filter in CI would turn a partial run green; locally it is how one test is rerun. */
function refuseFilterInCi(env) {
  if (env.CI && env.RLM_EXT_TEST_GREP) throw new Error(`RLM_EXT_TEST_GREP=${env.RLM_EXT_TEST_GREP} is set in CI: a filtered run checks only part of the suite. Unset it.`);
}

async function main() {
  const started = Date.now();
  refuseFilterInCi(process.env);
  const files = selectFiles(process.argv.slice(2));
  if (files.length === 0) throw new Error('no integration test files found');
  const prepared = await prepareCodeServer();
  console.log(prepared.prepared ? `code-server prepared in ${prepared.seconds} s` : `code-server: using ${prepared.dir}`);
  if (process.env.RLM_SKIP_PACKAGE !== '1') {
    if ((await run('npm', ['run', '--silent', 'package'])) !== 0) throw new Error('npm run package failed');
  }
  const env = { ...process.env };
  if (files.includes(extensionHostWrapper) || files.includes(breakageCheck)) {
    const { indexPath, files: suiteFiles } = await bundleExtensionHostSuite();
    console.log(`extension-host suite: ${suiteFiles.length} files bundled into ${relative(repoRoot, indexPath)}`);
    env.RLM_EXT_SUITE_INDEX = indexPath;
  }
  console.log(`Preparation took ${Math.round((Date.now() - started) / 1000)} s; screenshots and logs go to test-output/`);
  console.log(`Running ${files.length} integration test files: ${files.map((f) => relative(repoRoot, f)).join(' ')}`);
  const summaryDir = mkdtempSync(join(tmpdir(), 'rlm-integration-run-'));
  const summaryFile = join(summaryDir, 'summary.jsonl');
  const reporter = new URL('../../scripts/testRunReporter.mjs', import.meta.url).href;
  const code = await run(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-reporter=spec', '--test-reporter-destination=stdout', `--test-reporter=${reporter}`, `--test-reporter-destination=${summaryFile}`, ...files],
    { env },
  );
  const summary = existsSync(summaryFile) ? readFileSync(summaryFile, 'utf8') : '';
  rmSync(summaryDir, { recursive: true, force: true });
  const problems = judgeTestRun(summary, files);
  if (problems.length > 0) {
    console.error(`\nThe run cannot count as green (${problems.length} problem${problems.length === 1 ? '' : 's'}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exitCode = 1;
    return;
  }
  // Nothing is printed after this point: Node's summary stays the last lines of the output.
  process.exitCode = code;
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
