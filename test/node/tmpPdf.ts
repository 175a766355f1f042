import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { makePdf } from '../support/pdfMaker';
import { newPdfSession, openPdf, pdfPageText } from '../../src/core/context/pdfDocument';
const t0 = Date.now();
writeFileSync('/tmp/inputs4-d.pdf', makePdf([{ lines: ['a'] }, {}]));
const workerPath = resolve(__dirname, '../../dist/pdfWorker.js');
(async () => {
  const s = newPdfSession();
  const doc = await openPdf('d.pdf', '/tmp/inputs4-d.pdf', s, { maxFileBytes: 1 << 20, workerPath });
  console.log('pages', doc.pages, Date.now() - t0);
  if (process.argv[2] === 'page') console.log(await pdfPageText('d.pdf', '/tmp/inputs4-d.pdf', s, 1, { maxFileBytes: 1 << 20, workerPath }), Date.now() - t0);
  setTimeout(() => console.log('RES', JSON.stringify(process.getActiveResourcesInfo())), 1000).unref();
  setTimeout(() => {}, 1500);
  process.on('exit', () => console.log('exit', Date.now() - t0));
})();
