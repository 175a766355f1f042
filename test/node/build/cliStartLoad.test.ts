// What every `rlm` command runs before it knows which command it is: the modules src/cli/main.ts
// imports statically. esbuild runs those at start; a command's own code (dynamically imported) runs only
// for that command. No model SDK may be among them: `rlm --version`, `show`, `export` and `cache` talk
// to no model, and the SDKs' hundreds of modules were initialised for each of them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { build } from 'esbuild';

const repoRoot = join(__dirname, '..', '..', '..');

/** Every input reached from `entry` through static imports only, as esbuild's metafile lists them. */
function staticClosure(inputs: Record<string, { imports: Array<{ path: string; kind: string }> }>, entry: string): Set<string> {
  const seen = new Set([entry]);
  const queue = [entry];
  while (queue.length) {
    for (const imported of inputs[queue.shift()!]?.imports ?? []) {
      if (imported.kind === 'dynamic-import' || seen.has(imported.path)) continue;
      seen.add(imported.path);
      queue.push(imported.path);
    }
  }
  return seen;
}

test("rlm's entry loads no model SDK before it knows the command", async () => {
  const result = await build({
    absWorkingDir: repoRoot,
    entryPoints: ['src/cli/main.ts'],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    metafile: true,
    logLevel: 'silent',
    loader: { '.py': 'text' },
    define: { __RLM_TEST_BUILD__: 'false' },
  });
  const closure = staticClosure(result.metafile.inputs, 'src/cli/main.ts');
  const sdks = [...closure].filter((path) => /node_modules[\\/](openai|@anthropic-ai)[\\/]/.test(path));
  assert.deepEqual(sdks.slice(0, 3), [], `${sdks.length} SDK module(s) are imported statically by src/cli/main.ts`);
  // The commands themselves are still in the bundle, reached through import().
  assert.ok(Object.keys(result.metafile.inputs).some((path) => path.includes('node_modules/openai/')), 'the bundle no longer holds the openai SDK at all');
});
