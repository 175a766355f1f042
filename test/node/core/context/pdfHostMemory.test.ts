// A deflate bomb in a PDF: a content stream of about 1 MB that inflates to 600 MB. pdf.js keeps what it
// inflates in buffers outside the worker's V8 heap, so the heap limit never fires (it stays at its
// default here); the host's own memory watch (pdfMemoryWatch.ts) is the layer that must stop it, with
// the host process's memory bounded and the PDF refused in one sentence.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createDeflate } from 'node:zlib';
import { newPdfSession, openPdf, pdfPageText } from '../../../../src/core/context/pdfDocument';
import { watchHostMemory } from '../../../../src/core/context/pdfMemoryWatch';
import { makePdf } from '../../../support/pdfMaker';
import { pdfRefusal } from '../../../support/pdfRefusal';

const workerPath = resolve(__dirname, '../../../../dist/pdfWorker.js');
const MB = 1024 * 1024;

/** `bytes` of spaces after a comment sign, deflated chunk by chunk (never held whole here). */
async function deflatedSpaces(bytes: number): Promise<Buffer> {
  const deflate = createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => parts.push(chunk));
  const ended = new Promise<void>((done) => deflate.on('end', done));
  const chunk = Buffer.alloc(MB, 0x20);
  deflate.write('%');
  for (let written = 0; written < bytes; written += chunk.length) {
    if (!deflate.write(chunk)) await new Promise((drained) => deflate.once('drain', drained));
  }
  deflate.end();
  await ended;
  return Buffer.concat(parts);
}

describe('a PDF deflate bomb and the host memory watch', () => {
  let dir: string;
  let bomb: string;
  before(async () => {
    if (!existsSync(workerPath)) throw new Error('dist/pdfWorker.js is missing: run `npm run build` before this test');
    dir = mkdtempSync(join(tmpdir(), 'rlm-pdf-bomb-'));
    bomb = join(dir, 'bomb.pdf');
    writeFileSync(bomb, makePdf([{ deflated: await deflatedSpaces(600 * MB) }]));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('stops the parse when the host process grows past the limit, though the worker heap limit never fires', async () => {
    const session = newPdfSession();
    const options = { maxFileBytes: 64 * MB, workerPath, limits: { hostGrowthMb: 128, pageMs: 120_000 } };
    const doc = await openPdf('bomb.pdf', bomb, session, options);
    assert.equal(doc.pages, 1);
    let peak = 0;
    const baseline = process.memoryUsage.rss();
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss() - baseline)), 5);
    const error = await pdfRefusal(pdfPageText('bomb.pdf', bomb, session, 1, options));
    clearInterval(sampler);
    assert.equal(error.reason, 'memory', error.message);
    assert.equal(error.message, 'Reading bomb.pdf needed more than the 128 MB allowed for parsing a PDF on page 1, so it was stopped. Split the file or save it again, and ask again.');
    // The limit plus what can be inflated between two samples: far from the 600 MB the page would take.
    assert.ok(peak < 450 * MB, `the host grew by ${Math.round(peak / MB)} MB`);
  });

  it('the watch itself: fires once, past the limit, from the growth since it started', async () => {
    let rss = 1000 * MB;
    const fired: number[] = [];
    const stop = watchHostMemory({ limitMb: 100, onOver: (mb) => fired.push(mb), rss: () => rss, sampleMs: 1 });
    rss += 99 * MB;
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(fired, [], 'under the limit');
    rss += 2 * MB;
    await new Promise((r) => setTimeout(r, 20));
    rss += 500 * MB;
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(fired, [101], 'once, with the growth it saw');
    stop();
  });
});
