// The build produces every bundle the extension needs and ships the Pyodide runtime offline, and no
// bundle carries a file of bench/ or test/ (the source maps list every input a bundle holds).
// A whole build in esbuild's own process, several seconds of CPU: a node-tier test, not a unit test.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';

interface BuildModule {
  buildAll(options: { outdir: string }): Promise<{ bundles: string[] }>;
  PYODIDE_FILES: string[];
}

const repoRoot = join(__dirname, '..', '..', '..');
let outdir = '';
let mod: BuildModule;
let bundles: string[] = [];

before(async () => {
  outdir = await mkdtemp(join(tmpdir(), 'rlm-build-'));
  mod = (await import('../../../esbuild.mjs')) as BuildModule;
  ({ bundles } = await mod.buildAll({ outdir }));
});
after(() => rm(outdir, { recursive: true, force: true }));

test('buildAll writes the extension, CLI, REPL and webview bundles and copies Pyodide', async () => {
  assert.deepEqual(new Set(bundles), new Set(['extension', 'engine', 'cli', 'launcher', 'replProcess', 'replWorker', 'esmGuardHooks', 'sidebar', 'trajectory', 'modelSetup', 'pdfWorker']));
  for (const file of ['extension.js', 'engine.js', 'cli.js', 'rlm.js', 'replProcess.js', 'replWorker.js', 'pdfWorker.js', 'esmGuardHooks.mjs', 'webview/sidebar.js', 'webview/trajectory.js', 'webview/codicon.css']) {
    assert.ok((await stat(join(outdir, file))).size > 0, `${file} is missing or empty`);
  }
  const pyodide = await readdir(join(outdir, 'pyodide'));
  for (const file of mod.PYODIDE_FILES) assert.ok(pyodide.includes(file), `pyodide/${file} was not copied`);
  assert.ok((await stat(join(outdir, 'pyodide', 'pyodide.asm.wasm'))).size > 1_000_000, 'the wasm runtime looks truncated');
  // The stdlib ships with bytecode for the modules a REPL start imports, and keeps every source.
  const stdlib = await readFile(join(outdir, 'pyodide', 'python_stdlib.zip'));
  for (const name of ['json/__init__.pyc', 'json/__init__.py', 're/_compiler.pyc', 'ast.pyc', 'email/utils.py']) {
    assert.ok(stdlib.includes(Buffer.from(name)), `python_stdlib.zip lacks ${name}`);
  }
  assert.ok(!stdlib.includes(Buffer.from('email/utils.pyc')), 'modules no start imports are left as sources');
  const cli = await readFile(join(outdir, 'cli.js'), 'utf8');
  assert.ok(cli.startsWith('#!/usr/bin/env node'), 'the CLI bundle needs a shebang to run as a program');
  assert.ok((await readFile(join(outdir, 'rlm.js'), 'utf8')).startsWith('#!/usr/bin/env node'), 'rlm.js needs a shebang to work as `rlm`');
  const extension = await readFile(join(outdir, 'extension.js'), 'utf8');
  assert.match(extension, /require\("vscode"\)/, 'vscode must stay external to the extension bundle');
});

test('no bundle holds a file of bench/ or test/: every source map lists only shipped sources', async () => {
  // The production build is the same module graph, minified and without maps.
  const maps = (await readdir(outdir, { recursive: true, encoding: 'utf8' })).filter((f) => f.endsWith('.map'));
  assert.equal(maps.length, bundles.length, `one map per bundle, got ${maps.join(', ')}`);
  for (const map of maps) {
    const { sources } = JSON.parse(await readFile(join(outdir, map), 'utf8')) as { sources: string[] };
    assert.ok(sources.some((s) => s.includes('src/') || s.includes('webview/')), `${map} lists no shipped source: is this a real map?`);
    const stray = sources.map((s) => relative(repoRoot, resolve(dirname(join(outdir, map)), s)).split(sep).join('/')).filter((s) => /^(bench|test)\//.test(s));
    assert.deepEqual(stray, [], `${map} bundles files from bench/ or test/`);
  }
});

test('every webview script and stylesheet can be carried in its page (no early end of its element)', async () => {
  const { canInlineScript, canInlineStyle } = await import('../../../src/vscode/webviews/webviewSecurity');
  for (const name of ['sidebar', 'trajectory', 'modelSetup']) {
    assert.ok(canInlineScript(await readFile(join(outdir, 'webview', `${name}.js`), 'utf8')), `webview/${name}.js holds "</script" or "<!--" then "<script"`);
    assert.ok(canInlineStyle(await readFile(join(repoRoot, 'media', `${name}.css`), 'utf8')), `media/${name}.css holds "</style"`);
  }
});
