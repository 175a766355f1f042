// The unit runner's compile step (scripts/compileTestSources.mjs): what each test process loads instead
// of tsx's output must behave like it — strict, with import.meta, a dynamic import() of TypeScript that
// Node can load, and a source map that names the .ts file — and a second run compiles only what changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compiledPath, compileTestSources, stopCompiler } from '../../../scripts/compileTestSources.mjs';

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'rlm-compile-sources-'));
  const write = (path: string, text: string): void => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  write('tsconfig.json', JSON.stringify({ compilerOptions: { strict: true }, include: ['src'], exclude: ['src/fixtures'] }));
  write(
    'src/a.ts',
    [
      'export const where = { dirname: import.meta.dirname, filename: import.meta.filename, url: import.meta.url };',
      'export function thisOfPlainCall(): unknown { return (function (this: unknown) { return this; })(); }',
      "export async function loadB(): Promise<string> { return (await import('./b')).b; }",
      "export async function loadScript(): Promise<unknown> { return import('./script.mjs'); }",
    ].join('\n'),
  );
  write('src/b.ts', "export const b: string = 'B';\n");
  write('src/shapes.d.ts', 'declare const x: number;\n');
  write('src/fixtures/broken.ts', 'this is not TypeScript\n');
  return root;
}

/** Loads a compiled module under its .ts path, as scripts/compiledTsRequire.cjs does. */
function load(source: string, code: string): Record<string, unknown> {
  const mod = new Module(source) as Module & { _compile(code: string, filename: string): void };
  mod.filename = source;
  mod._compile(code, source);
  return mod.exports as Record<string, unknown>;
}

test('compiled modules are strict, know their import.meta, turn import() of TypeScript into require and map to their .ts file', async (t) => {
  const root = project();
  const outDir = join(root, '..', `${root.split('/').pop()}-out`);
  t.after(async () => {
    await stopCompiler();
    rmSync(root, { recursive: true, force: true });
    rmSync(outDir, { recursive: true, force: true });
  });
  assert.deepEqual(await compileTestSources({ root, outDir }), { files: 2, compiled: 2 }, 'the .d.ts and the excluded folder are left out');
  assert.equal(existsSync(compiledPath(root, outDir, join(root, 'src/fixtures/broken.ts'))), false);

  const source = join(root, 'src/a.ts');
  const code = readFileSync(compiledPath(root, outDir, source), 'utf8');
  const a = load(source, code);
  assert.deepEqual(a.where, { dirname: join(root, 'src'), filename: source, url: pathToFileURL(source).href });
  assert.equal((a.thisOfPlainCall as () => unknown)(), undefined, 'strict mode, as tsconfig asks');
  assert.match(code, /require\("\.\/b"\)/, 'import() of a TypeScript module becomes a require Node can serve');
  assert.match(code, /import\("\.\/script\.mjs"\)/, 'import() of an ES module is left to Node');

  const map = JSON.parse(Buffer.from(/sourceMappingURL=data:application\/json;base64,(\S+)/.exec(code)![1]!, 'base64').toString('utf8')) as { sources: string[] };
  assert.deepEqual(map.sources, [pathToFileURL(source).href]);

  assert.deepEqual(await compileTestSources({ root, outDir }), { files: 2, compiled: 0 }, 'nothing changed, nothing compiled');
  writeFileSync(join(root, 'src/b.ts'), "export const b: string = 'B2';\n");
  assert.deepEqual(await compileTestSources({ root, outDir }), { files: 2, compiled: 1 }, 'only the changed file');
  assert.match(readFileSync(compiledPath(root, outDir, join(root, 'src/b.ts')), 'utf8'), /B2/);
});
