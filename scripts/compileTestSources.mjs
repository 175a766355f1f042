// Compiles the repository's TypeScript once for a run of Node tests (scripts/runUnitTests.mjs), so that
// each test process loads plain JavaScript through scripts/compiledTsRequire.cjs instead of starting a
// TypeScript loader and compiling its imports again: that start-up, paid by every test file, was about
// half of the unit tier's CPU time.
//
// Every .ts file that tsconfig.json includes is compiled the way tsx compiled it on the fly: esbuild,
// CommonJS for Node 20, the project's tsconfig (strict mode, class fields), names kept. Imports stay
// imports: each module is compiled alone and loaded by Node's own require under its .ts path, so
// __dirname, module identity and resolution are those of the source. Two things a lone CommonJS
// module lacks are supplied: `import.meta` (its file, folder and URL, read at run time from the module's
// own __filename), and a dynamic import() of a TypeScript module, which Node's ES loader cannot load
// and which becomes a require() (a .mjs or a package is still imported by Node). Each file's source map
// names its .ts file by absolute URL, so that with --enable-source-maps a stack trace shows .ts lines.
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The identifier `import.meta` becomes; the banner defines it in each module from its own __filename. */
const IMPORT_META = '__rlmImportMeta';
// tsconfig's `strict` makes every module strict (as under tsx), and the directive only counts as the
// module's first statement, so the banner carries it ahead of the definition.
const BANNER = `"use strict"; var ${IMPORT_META} = { dirname: __dirname, filename: __filename, url: require('node:url').pathToFileURL(__filename).href };`;

/** Where the compiled form of `source` (a .ts file under `root`) lies in `outDir`. */
export function compiledPath(root, outDir, source) {
  return join(outDir, relative(root, source)).replace(/\.ts$/, '.js');
}

/** The .ts files tsconfig.json's `include` folders hold, less its `exclude` ones and declaration files. */
function typeScriptSources(root) {
  const { include = [], exclude = [] } = JSON.parse(readFileSync(join(root, 'tsconfig.json'), 'utf8'));
  const excluded = exclude.map((path) => resolve(root, path) + sep);
  const files = [];
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = join(dir, name);
      if (name === 'node_modules' || excluded.some((path) => (full + sep).startsWith(path))) continue;
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) files.push(full);
    }
  };
  // Globs such as scripts/**/*.ts: the folder before the first wildcard.
  const roots = [...new Set(include.map((pattern) => resolve(root, pattern.split(/[*]/)[0] || '.')))];
  for (const dir of roots) if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) walk(dir);
  return [...new Set(files)].sort();
}

/**
 * Leaves every import to Node, except a dynamic import() of a TypeScript module (relative, with no
 * extension or .ts), which becomes a require() through a one-line module that esbuild inlines.
 */
const importsStayImports = {
  name: 'imports-stay-imports',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      if (args.kind === 'dynamic-import' && /^\.\.?\//.test(args.path) && !/\.(mjs|cjs|js|json)$/.test(args.path)) {
        return { path: args.path, namespace: 'required-typescript', pluginData: { from: args.importer } };
      }
      return { path: args.path, external: true };
    });
    build.onLoad({ filter: /.*/, namespace: 'required-typescript' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
      resolveDir: dirname(args.pluginData.from),
    }));
  },
};

const sha1 = (data) => createHash('sha1').update(data).digest('hex');

/** Written whole or not at all: two runs in one checkout may compile the same file at once. */
function writeAtomically(path, text) {
  mkdirSync(dirname(path), { recursive: true });
  const partial = `${path}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, path);
}

/**
 * The compiled files of one checkout, kept between runs (in the system's temporary folder): named by
 * the checkout and by what decides the output (this compiler, tsconfig.json, esbuild's version), so a
 * change to any of them starts a fresh folder.
 */
export function compiledSourcesDir(root) {
  const compiler = [readFileSync(fileURLToPath(import.meta.url)), readFileSync(join(root, 'tsconfig.json')), esbuild.version];
  return join(tmpdir(), `rlm-test-js-${sha1([resolve(root), ...compiler].join('\0')).slice(0, 16)}`);
}

/**
 * Compiles the TypeScript sources under `root` into `outDir`: only those whose content changed since
 * the last run there (outDir/manifest.json holds each file's hash). Returns how many files there are
 * and how many were compiled.
 */
export async function compileTestSources({ root, outDir }) {
  const sources = typeScriptSources(root);
  const manifestPath = join(outDir, 'manifest.json');
  let previous = {};
  try {
    previous = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch {
    // No manifest yet (or a broken one): everything is compiled.
  }
  const hashes = Object.fromEntries(sources.map((source) => [relative(root, source), sha1(readFileSync(source))]));
  const stale = sources.filter((source) => previous[relative(root, source)] !== hashes[relative(root, source)] || !existsSync(compiledPath(root, outDir, source)));
  if (stale.length > 0) await compile(root, outDir, stale);
  writeAtomically(manifestPath, JSON.stringify(hashes));
  return { files: sources.length, compiled: stale.length };
}

/** Ends esbuild's service process (started by the first compile) once no more compiling is to be done. */
export async function stopCompiler() {
  await esbuild.stop();
}

async function compile(root, outDir, sources) {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: sources,
    outdir: outDir,
    outbase: root,
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    keepNames: true,
    sourcemap: 'external',
    sourcesContent: false,
    tsconfigRaw: readFileSync(join(root, 'tsconfig.json'), 'utf8'),
    define: { 'import.meta': IMPORT_META },
    banner: { js: BANNER },
    plugins: [importsStayImports],
    logLevel: 'silent',
  });
  const maps = new Map(result.outputFiles.filter((file) => file.path.endsWith('.map')).map((file) => [file.path, file.text]));
  for (const file of result.outputFiles) {
    if (!file.path.endsWith('.js')) continue;
    const source = join(root, relative(outDir, file.path)).replace(/\.js$/, '.ts');
    // Node resolves a map's sources against the module's own path (the .ts): name it absolutely.
    const map = { ...JSON.parse(maps.get(`${file.path}.map`)), sources: [pathToFileURL(source).href] };
    writeAtomically(file.path, `${file.text}//# sourceMappingURL=data:application/json;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}\n`);
  }
}
