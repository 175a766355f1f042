// The PDF worker's limits, with the built dist/pdfWorker.js: opening or a page past its time limit, a
// heap too small for the document, and more pages than allowed each end in a PdfReadError saying so,
// the worker ended and the host running on; a document that failed stays failed within its session
// (every later page is refused at once, none waits for another time limit).
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pdfRefusal } from '../../../support/pdfRefusal';
import { newPdfSession, openPdf, pdfPageText } from '../../../../src/core/context/pdfDocument';
import { makePdf } from '../../../support/pdfMaker';

const workerPath = resolve(__dirname, '../../../../dist/pdfWorker.js');
const MB = 1024 * 1024;

describe('PDF worker limits (dist/pdfWorker.js)', () => {
  let dir: string;
  let pdf: string;
  before(() => {
    if (!existsSync(workerPath)) throw new Error('dist/pdfWorker.js is missing: run `npm run build` before this test');
    dir = mkdtempSync(join(tmpdir(), 'rlm-pdf-limits-'));
    pdf = join(dir, 'five.pdf');
    writeFileSync(pdf, makePdf(Array.from({ length: 5 }, (_, i) => ({ lines: [`page ${i + 1}`] }))));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const refusal = pdfRefusal;

  it('reads pages within the limits', async () => {
    const session = newPdfSession();
    const doc = await openPdf('five.pdf', pdf, session, { maxFileBytes: MB, workerPath });
    assert.equal(doc.pages, 5);
    assert.deepEqual(await pdfPageText('five.pdf', pdf, session, 4, { maxFileBytes: MB, workerPath }), { text: 'page 4', truncated: false });
  });

  it('stops an opening past its time limit, and says so', async () => {
    const error = await refusal(openPdf('five.pdf', pdf, newPdfSession(), { maxFileBytes: MB, workerPath, limits: { openMs: 5 } }));
    assert.equal(error.reason, 'timeout');
    assert.equal(error.message, 'Reading five.pdf took longer than 5 ms while opening it, so it was stopped; the file may be hostile or too complex. Save it again (e.g. print to PDF) and ask again.');
  });

  it('stops a page past its time limit, and refuses the document\'s other pages at once after that', async () => {
    const session = newPdfSession();
    const options = { maxFileBytes: MB, workerPath, limits: { pageMs: 1 } };
    await openPdf('five.pdf', pdf, session, options);
    const error = await refusal(pdfPageText('five.pdf', pdf, session, 2, options));
    assert.equal(error.reason, 'timeout');
    assert.match(error.message, /took longer than 1 ms on page 2/);
    const started = Date.now();
    const again = await refusal(pdfPageText('five.pdf', pdf, session, 3, { ...options, limits: { pageMs: 60_000 } }));
    assert.equal(again, error, 'the same failure, at once');
    assert.ok(Date.now() - started < 5_000);
    // Another session (the next run) reads the file afresh.
    assert.equal((await pdfPageText('five.pdf', pdf, newPdfSession(), 3, { maxFileBytes: MB, workerPath })).text, 'page 3');
  });

  it('stops a worker that needs more heap than allowed', async () => {
    const error = await refusal(openPdf('five.pdf', pdf, newPdfSession(), { maxFileBytes: MB, workerPath, limits: { heapMb: 2 } }));
    assert.ok(error.reason === 'memory' || error.reason === 'crashed', `${error.reason}: ${error.message}`);
    if (error.reason === 'memory') assert.match(error.message, /needed more than the 2 MB allowed for parsing a PDF/);
  });

  it('refuses a document with more pages than allowed (a page bomb), and a file over the size limit', async () => {
    const pages = await refusal(openPdf('five.pdf', pdf, newPdfSession(), { maxFileBytes: MB, workerPath, limits: { maxPages: 3 } }));
    assert.equal(pages.message, 'five.pdf says it has 5 pages, over the 3 pages RLM reads from one PDF; nothing was sent. Split it, or ask about the part you need.');
    const large = await refusal(openPdf('five.pdf', pdf, newPdfSession(), { maxFileBytes: 100, workerPath }));
    assert.equal(large.reason, 'too-large');
  });
});
