// A process that read a PDF exits when its work is done, though the document's worker thread is still
// open (kept for further pages until it is idle): `rlm ask design.pdf` once waited 30 s after printing
// its answer, because the thread was ref'd again by its message listener and its output stream.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { makePdf } from '../../../support/pdfMaker';

const workerPath = resolve(__dirname, '../../../../dist/pdfWorker.js');
const fixture = join(__dirname, 'fixtures', 'pdfThenExit.ts');

describe('a PDF worker never holds its process', () => {
  let dir: string;
  before(() => {
    if (!existsSync(workerPath)) throw new Error('dist/pdfWorker.js is missing: run `npm run build` before this test');
    dir = mkdtempSync(join(tmpdir(), 'rlm-pdf-exit-'));
    writeFileSync(join(dir, 'doc.pdf'), makePdf([{ lines: ['first page'] }, { lines: ['second page'] }]));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('exits after reading a page, its document still open (idle close an hour away)', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, join(dir, 'doc.pdf'), workerPath], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    // The guard only ends a process that would otherwise wait for the idle close: far longer than any
    // start-up on a loaded machine, far shorter than the hour.
    const guard = setTimeout(() => child.kill('SIGKILL'), 5 * 60 * 1000);
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) => child.on('exit', (c, s) => done([c, s])));
    clearTimeout(guard);
    assert.equal(signal, null, `the process was still running with its PDF open; stderr: ${stderr}`);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'first page\n');
  });
});
