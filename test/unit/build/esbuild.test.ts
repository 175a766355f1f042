// The build produces every bundle the extension needs and ships the Pyodide runtime offline.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface BuildModule {
  buildAll(options: { outdir: string }): Promise<{ bundles: string[] }>;
  PYODIDE_FILES: string[];
}

test('buildAll writes the extension, CLI, REPL and webview bundles and copies Pyodide', async () => {
  const outdir = await mkdtemp(join(tmpdir(), 'rlm-build-'));
  try {
    const mod = (await import('../../../esbuild.mjs')) as BuildModule;
    const { bundles } = await mod.buildAll({ outdir });
    assert.deepEqual(new Set(bundles), new Set(['extension', 'engine', 'cli', 'replProcess', 'replWorker', 'esmGuardHooks', 'sidebar', 'trajectory']));
    for (const file of ['extension.js', 'engine.js', 'cli.js', 'replProcess.js', 'replWorker.js', 'esmGuardHooks.mjs', 'webview/sidebar.js', 'webview/trajectory.js', 'webview/codicon.css']) {
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
    assert.ok(cli.startsWith('#!/usr/bin/env node'), 'the CLI bundle needs a shebang to work as `rlm`');
    const extension = await readFile(join(outdir, 'extension.js'), 'utf8');
    assert.match(extension, /require\("vscode"\)/, 'vscode must stay external to the extension bundle');
  } finally {
    await rm(outdir, { recursive: true, force: true });
  }
});
