// Bundles the extension-host suite with esbuild into dist-test/extensionHost/index.js, whose run()
// is what VS Code calls for extensionTestsPath (in code-server through the payload URL, and in
// Electron VS Code through @vscode/test-electron). Every suite/*.test.ts is included, so adding a
// test is adding a file. `vscode` stays external: the extension host provides it.
import * as esbuild from 'esbuild';
import { readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repoRoot = resolve(here, '..', '..', '..');
export const suiteDir = join(here, 'suite');
export const defaultOutdir = join(repoRoot, 'dist-test', 'extensionHost');

export function suiteFiles() {
  return readdirSync(suiteDir).filter((name) => name.endsWith('.test.ts')).sort();
}

/** Builds the bundle; returns the absolute path of index.js and the suite files it holds. */
export async function bundleExtensionHostSuite({ outdir = defaultOutdir } = {}) {
  const files = suiteFiles();
  if (files.length === 0) throw new Error(`No *.test.ts files in ${suiteDir}`);
  // Lazy require()s: each suite file must run after mocha's pre-require has defined describe/it.
  const entry = [
    `const { runSuite } = require(${JSON.stringify(join(here, 'suiteRunner.ts'))});`,
    'const modules = [',
    ...files.map((f) => `  { file: ${JSON.stringify(f)}, load: () => require(${JSON.stringify(join(suiteDir, f))}) },`),
    '];',
    'exports.run = function run() { return runSuite(modules); };',
  ].join('\n');
  const outfile = join(outdir, 'index.js');
  await esbuild.build({
    stdin: { contents: entry, resolveDir: here, sourcefile: 'extensionHostSuiteEntry.cjs', loader: 'js' },
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['vscode'],
    sourcemap: 'inline',
    logLevel: 'warning',
    // Mocha's parallel mode (never used here) resolves worker files at run time.
    logOverride: { 'require-resolve-not-external': 'silent' },
    absWorkingDir: repoRoot,
  });
  return { indexPath: outfile, files };
}

const invokedDirectly = process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
// No top-level await: TypeScript tests load this module through require().
if (invokedDirectly) {
  bundleExtensionHostSuite().then(
    ({ indexPath, files }) => console.log(`extension-host suite: ${files.length} files -> ${indexPath}`),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
