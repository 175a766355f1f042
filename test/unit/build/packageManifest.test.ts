// What ships is decided by one list, package.json's `files`, for both the VSIX (vsce) and the npm
// package (npm pack), and the bundles carry their dependencies inside them. So: the list names every
// bundle esbuild.mjs builds, the Pyodide runtime and the webviews' icon font, and nothing of the
// sources, tests or benches; and nothing is a runtime dependency that an install would have to fetch.
// test/node/build/packageContents.test.ts checks the packages themselves, as vsce and npm make them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { REPL_FILES } from '../../../src/core/repl/replSession';

const repoRoot = join(__dirname, '..', '..', '..');

interface Manifest {
  files?: string[];
  bin?: Record<string, string>;
  main?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface BuildModule {
  bundleSpecs(outdir: string): Array<{ name: string; outfile: string; external?: string[] }>;
  PYODIDE_FILES: string[];
}

const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as Manifest;

/** Whether a path is matched by the `files` list (entries are paths, folders ending in /, or dir/*.ext). */
function listed(path: string): boolean {
  return (manifest.files ?? []).some((entry) => {
    if (entry.endsWith('/')) return path.startsWith(entry);
    const star = /^(.*\/)\*(\.[a-z]+)$/.exec(entry);
    if (star) return path.startsWith(star[1]!) && !path.slice(star[1]!.length).includes('/') && path.endsWith(star[2]!);
    return path === entry;
  });
}

test('the files list names every bundle, the Pyodide runtime and the icon font, and every file the REPL loads', async () => {
  const { bundleSpecs, PYODIDE_FILES } = (await import('../../../esbuild.mjs')) as BuildModule;
  const dist = join(repoRoot, 'dist');
  const bundles = bundleSpecs(dist).map((spec) => `dist/${relative(dist, spec.outfile).split(sep).join('/')}`);
  const needed = [...bundles, ...PYODIDE_FILES.map((f) => `dist/pyodide/${f}`), 'dist/webview/codicon.css', 'dist/webview/codicon.ttf', ...REPL_FILES.map((f) => `dist/${f}`), 'media/icon.png', 'media/rlm.svg', 'README.md', 'CHANGELOG.md', 'LICENSE'];
  assert.deepEqual(needed.filter((f) => !listed(f)), [], 'package.json files lacks these');
  assert.ok(manifest.bin?.rlm && listed(manifest.bin.rlm), 'the rlm command ships');
  assert.ok(manifest.main && listed(manifest.main.replace(/^\.\//, '')), 'the extension entry ships');
});

test('the files list holds no source, test, bench, script or source map', () => {
  for (const path of ['src/core/loop/runDriver.ts', 'src/worker/python/prelude.py', 'test/unit/build/packageManifest.test.ts', 'bench/RESULTS.md', 'scripts/dependencies.mjs', 'dist/cli.js.map', 'dist/webview/sidebar.js.map', 'esbuild.mjs', 'tsconfig.json']) {
    assert.equal(listed(path), false, `${path} would ship`);
  }
});

test('nothing is a runtime dependency: the bundles inline every package but `vscode`, so the packages they use are devDependencies', async () => {
  assert.deepEqual(manifest.dependencies ?? {}, {}, 'an install of the npm package or the VSIX fetches no dependency');
  for (const name of ['markdown-it', 'highlight.js', 'openai', '@anthropic-ai/sdk', 'pyodide', '@vscode-elements/elements', '@vscode/codicons']) {
    assert.ok(manifest.devDependencies?.[name], `${name} is bundled or copied into dist/ at build time: a devDependency`);
  }
  const { bundleSpecs } = (await import('../../../esbuild.mjs')) as BuildModule;
  for (const spec of bundleSpecs('dist')) assert.deepEqual(spec.external ?? [], spec.name === 'extension' ? ['vscode'] : [], `${spec.name} leaves out only what the runtime provides`);
});
