// The import() guard's hooks keep Node's loader thread turning (esmGuardHooks.ts says why: the REPL's
// start-up probes waited 21-170 ms for a second import() when that thread's loop ran dry), and do not
// keep alive the worker that registered them. The built hooks (dist/) are used, as the REPL uses them.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));
const hooksFile = join(repoRoot, 'dist', 'esmGuardHooks.mjs');

/**
 * Runs in a worker: loads the built hooks module as Node's loader thread does and initialises it, then
 * reports whether that thread's event loop would ever run dry ('beforeExit' fires only then).
 */
const LOOP_PROBE = `
const { parentPort, workerData } = require('node:worker_threads');
process.on('beforeExit', () => parentPort.postMessage('ran dry'));
import(workerData.hooks).then((hooks) => {
  hooks.initialize({ phase: new Int32Array(new SharedArrayBuffer(4)), importableDir: workerData.dir });
  setTimeout(() => parentPort.postMessage('initialised'), 10);
});
`;

describe('the import() guard on its loader thread', () => {
  it("keeps its thread's event loop turning, so an import() after the first is answered at once", { skip: existsSync(hooksFile) ? false : 'dist/ is not built', timeout: 60_000 }, async () => {
    // Measured in the REPL: with the loop left to run dry, the start-up probes' second import() waited
    // 21-170 ms. Here the question is only whether the loop runs dry: without the hooks' timer it does
    // within a millisecond of the last timer, and the worker exits.
    const worker = new Worker(LOOP_PROBE, { eval: true, workerData: { hooks: pathToFileURL(hooksFile).href, dir: pathToFileURL(join(repoRoot, 'dist', 'pyodide')).href + '/' } });
    const said: string[] = [];
    worker.on('message', (message: string) => said.push(message));
    let gone = false;
    const exited = new Promise<number>((resolve) => worker.once('exit', (code) => ((gone = true), resolve(code))));
    while (!said.includes('initialised') && !gone) await new Promise((resolve) => setTimeout(resolve, 10));
    const outcome = await Promise.race([exited.then(() => 'exited'), new Promise((resolve) => setTimeout(resolve, 1000, 'still running'))]);
    await worker.terminate();
    assert.deepEqual({ outcome, said }, { outcome: 'still running', said: ['initialised'] });
  });

  it('lets the worker that registered it end on its own', { skip: existsSync(hooksFile) ? false : 'dist/ is not built', timeout: 60_000 }, () => {
    // The hooks keep their own thread's loop turning; that must not keep the worker (or the process) alive.
    const code = `
const { Worker } = require('node:worker_threads');
const worker = new Worker(\`
const { register } = require('node:module');
const { workerData } = require('node:worker_threads');
register(workerData.hooks, { data: { phase: new Int32Array(new SharedArrayBuffer(4)), importableDir: workerData.dir } });
import('node:net').catch((error) => require('node:worker_threads').parentPort.postMessage(error.code));
\`, { eval: true, workerData: { hooks: process.argv[1], dir: process.argv[2] } });
worker.on('message', (code) => process.stdout.write(code + ' '));
worker.on('exit', (code) => process.stdout.write('exit ' + code));
`;
    const run = spawnSync(process.execPath, ['-e', code, pathToFileURL(hooksFile).href, pathToFileURL(join(repoRoot, 'dist', 'pyodide')).href + '/'], { encoding: 'utf8', timeout: 50_000 });
    assert.equal(run.signal, null, 'the process ended by itself');
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'ERR_RLM_SANDBOX_DENIED exit 0');
  });
});
