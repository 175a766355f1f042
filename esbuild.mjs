// Builds every bundle the extension ships, and copies the Pyodide runtime next to them so that
// nothing is fetched at run time (its stdlib with bytecode added: scripts/pyodide/precompileStdlib.mjs).
// `node esbuild.mjs [--watch] [--production]`.
// Exported as a function too, so a unit test can build into a temporary directory.
import * as esbuild from 'esbuild';
import { cp, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { precompiledStdlib } from './scripts/pyodide/precompileStdlib.mjs';

const root = dirname(fileURLToPath(import.meta.url));

/** The Pyodide files the REPL worker loads from `dist/pyodide/` with an explicit indexURL. */
export const PYODIDE_FILES = ['pyodide.asm.wasm', 'pyodide.asm.mjs', 'python_stdlib.zip', 'pyodide-lock.json', 'pyodide.mjs'];

/** Each bundle: where it starts, where it lands, and for which runtime. */
export function bundleSpecs(outdir) {
  const node = { platform: 'node', target: 'node20', format: 'cjs' };
  const browser = { platform: 'browser', target: 'es2022', format: 'iife' };
  return [
    { name: 'extension', entry: 'src/vscode/extension.ts', outfile: join(outdir, 'extension.js'), ...node, external: ['vscode'] },
    // The loop, model SDKs and REPL host: required by the extension on first use, so activation stays light.
    { name: 'engine', entry: 'src/vscode/engine/engineEntry.ts', outfile: join(outdir, 'engine.js'), ...node },
    // import() compiled to a lazy require(): rlm.js runs this bundle as a vm.Script from V8's code cache,
    // and Node 20 gives a cached script no loader for import().
    { name: 'cli', entry: 'src/cli/main.ts', outfile: join(outdir, 'cli.js'), ...node, banner: '#!/usr/bin/env node', supported: { 'dynamic-import': false } },
    // The `rlm` command: runs cli.js from V8's code cache (src/cli/codeCache.ts).
    { name: 'launcher', entry: 'src/cli/launcher.ts', outfile: join(outdir, 'rlm.js'), ...node, banner: '#!/usr/bin/env node' },
    { name: 'replProcess', entry: 'src/worker/replProcess.ts', outfile: join(outdir, 'replProcess.js'), ...node },
    // Bundles Pyodide's ESM loader, which reads import.meta.url: give it the bundle's own file URL.
    { name: 'replWorker', entry: 'src/worker/replWorker.ts', outfile: join(outdir, 'replWorker.js'), ...node, importMetaShim: true },
    // The import() guard of the REPL sandbox: an ES module that Node runs on its loader thread.
    // Parses PDFs off the host's main thread (src/core/context/pdfDocument.ts starts it). pdf.js
    // reads import.meta.url only to find an optional canvas package: left empty, it finds none.
    { name: 'pdfWorker', entry: 'src/core/context/pdfWorkerMain.ts', outfile: join(outdir, 'pdfWorker.js'), ...node, define: { 'import.meta.url': 'undefined' } },
    { name: 'esmGuardHooks', entry: 'src/worker/esmGuardHooks.ts', outfile: join(outdir, 'esmGuardHooks.mjs'), platform: 'node', target: 'node20', format: 'esm' },
    { name: 'sidebar', entry: 'webview/sidebar/main.ts', outfile: join(outdir, 'webview', 'sidebar.js'), ...browser },
    { name: 'trajectory', entry: 'webview/trajectory/main.ts', outfile: join(outdir, 'webview', 'trajectory.js'), ...browser },
    { name: 'modelSetup', entry: 'webview/modelSetup/main.ts', outfile: join(outdir, 'webview', 'modelSetup.js'), ...browser },
  ];
}

async function copyStaticAssets(outdir) {
  const pyodideDir = join(root, 'node_modules', 'pyodide');
  await mkdir(join(outdir, 'pyodide'), { recursive: true });
  for (const file of PYODIDE_FILES) {
    // The stdlib goes out with bytecode for the modules a REPL start imports (see the script).
    const from = file === 'python_stdlib.zip' ? await precompiledStdlib({ pyodideDir, cacheDir: join(root, '.cache', 'pyodide-stdlib') }) : join(pyodideDir, file);
    await cp(from, join(outdir, 'pyodide', file));
  }
  // pdf.js's character maps, read by the PDF worker for CJK fonts (nothing is fetched from elsewhere).
  await cp(join(root, 'node_modules', 'pdfjs-dist', 'cmaps'), join(outdir, 'pdf-cmaps'), { recursive: true });
  const codicons = join(root, 'node_modules', '@vscode', 'codicons', 'dist');
  await mkdir(join(outdir, 'webview'), { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) {
    await cp(join(codicons, file), join(outdir, 'webview', file));
  }
}

/** esbuild's options for one bundle (exported for a test that inspects a bundle's imports). */
export function esbuildOptions(spec, production) {
  return {
    absWorkingDir: root,
    entryPoints: [spec.entry],
    outfile: spec.outfile,
    bundle: true,
    platform: spec.platform,
    target: spec.target,
    format: spec.format,
    external: spec.external ?? [],
    banner: spec.banner ? { js: spec.banner } : undefined,
    sourcemap: production ? false : 'linked',
    minify: production,
    logLevel: 'warning',
    // The REPL's Python (src/worker/python/*.py) is bundled as text; the build key hashes it.
    loader: { '.py': 'text' },
    // Only where asked: an injected shim adds an init call to every bundled module.
    // __RLM_TEST_BUILD__: the REPL's test-only switches (a weakened layer) exist in development builds,
    // which the tests run, and are compiled out of the production build that ships (a test checks).
    define: { __RLM_TEST_BUILD__: production ? 'false' : 'true', ...(spec.importMetaShim ? { 'import.meta.url': 'importMetaUrl' } : {}), ...spec.define },
    inject: spec.importMetaShim ? [join(root, 'scripts', 'importMetaUrlShim.js')] : undefined,
    supported: spec.supported,
  };
}

/** Builds all bundles into `outdir` (default `dist/`). Returns the names of the bundles built. */
export async function buildAll({ outdir = join(root, 'dist'), production = false, only, bundlesOnly = false } = {}) {
  const specs = bundleSpecs(resolve(outdir)).filter((s) => !only || only.includes(s.name));
  await Promise.all(specs.map((spec) => esbuild.build(esbuildOptions(spec, production))));
  if (!bundlesOnly) await copyStaticAssets(resolve(outdir));
  return { bundles: specs.map((s) => s.name) };
}

async function watch() {
  const outdir = join(root, 'dist');
  await copyStaticAssets(outdir);
  const contexts = await Promise.all(bundleSpecs(outdir).map((spec) => esbuild.context(esbuildOptions(spec, false))));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('esbuild: watching for changes (Ctrl-C to stop)');
}

const invokedDirectly = process.argv[1] && existsSync(process.argv[1]) && import.meta.url === pathToFileURL(resolve(process.argv[1])).href;
if (invokedDirectly) {
  const args = process.argv.slice(2);
  if (args.includes('--watch')) {
    await watch();
  } else {
    const started = Date.now();
    const { bundles } = await buildAll({ production: args.includes('--production') });
    console.log(`esbuild: built ${bundles.join(', ')} and copied Pyodide in ${Date.now() - started} ms`);
  }
}
