// The REPL's test-only switches (a weakened sandbox layer, Python given `import js` as the worker's real
// globals) exist in the development build the tests run, and not in the production build that ships:
// a shipped worker ignores any `weaken` a host might send. The development build is the control.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

interface BuildModule {
  buildAll(options: { outdir: string; production?: boolean; only?: string[]; bundlesOnly?: boolean }): Promise<{ bundles: string[] }>;
}

/** What each switch leaves in the bundle: reading the config field, and handing Python the globals. */
const SWITCH_MARKS = [/config\.weaken/, /registerJsModule\("js",\s*globalThis\)/];

let shipped = '';
let development = '';
const dirs: string[] = [];

before(async () => {
  const mod = (await import('../../../esbuild.mjs')) as BuildModule;
  for (const production of [true, false]) {
    const outdir = await mkdtemp(join(tmpdir(), 'rlm-switches-'));
    dirs.push(outdir);
    await mod.buildAll({ outdir, production, only: ['replWorker'], bundlesOnly: true });
    const text = await readFile(join(outdir, 'replWorker.js'), 'utf8');
    if (production) shipped = text;
    else development = text;
  }
});
after(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

test('control: the development build carries the test-only switches', () => {
  for (const mark of SWITCH_MARKS) assert.match(development, mark);
});

test('the production (shipped) worker has no test-only switch', () => {
  assert.ok(shipped.length > 100_000, 'the production worker was built');
  for (const mark of SWITCH_MARKS) assert.doesNotMatch(shipped, mark);
});
