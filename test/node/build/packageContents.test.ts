// The VSIX ships exactly what the extension loads: every bundle esbuild.mjs builds but the CLI (which
// ships through npm's `bin`), the Pyodide runtime and the webviews' icon font, and no source map. A
// bundle missing from .vscodeignore's whitelist would only show up when a user asks a question.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { REPL_FILES } from '../../../src/core/repl/replSession';

const repoRoot = join(__dirname, '..', '..', '..');

interface BuildModule {
  bundleSpecs(outdir: string): Array<{ name: string; outfile: string }>;
  PYODIDE_FILES: string[];
}

function packagedFiles(): string[] {
  const vsce = join(repoRoot, 'node_modules', '@vscode', 'vsce', 'vsce');
  return execFileSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8' }).split('\n').map((l) => l.trim()).filter(Boolean);
}

test('the packaged dist/ holds every bundle but the CLI, the Pyodide runtime and the icon font, and nothing else', async () => {
  const { bundleSpecs, PYODIDE_FILES } = (await import('../../../esbuild.mjs')) as BuildModule;
  const dist = join(repoRoot, 'dist');
  const bundles = bundleSpecs(dist).filter((spec) => spec.name !== 'cli').map((spec) => `dist/${relative(dist, spec.outfile).split(sep).join('/')}`);
  const expected = [...bundles, ...PYODIDE_FILES.map((f) => `dist/pyodide/${f}`), 'dist/webview/codicon.css', 'dist/webview/codicon.ttf'].sort();
  const listed = packagedFiles();
  assert.deepEqual(listed.filter((f) => f.startsWith('dist/')).sort(), expected);
  for (const file of REPL_FILES) assert.ok(listed.includes(`dist/${file}`), `the VSIX would lack dist/${file}, which a REPL start needs`);
  assert.ok(!listed.includes('dist/cli.js'), 'the CLI ships through npm, not in the VSIX');
  assert.deepEqual(listed.filter((f) => f.endsWith('.map')), []);
});

test('the CLI still ships: package.json names dist/cli.js as the `rlm` command', () => {
  const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { bin?: Record<string, string> };
  assert.equal(manifest.bin?.rlm, 'dist/cli.js');
});
