// The PDF worker runs pdf.js on a hostile file, so the host reads what the worker sends as hostile:
// here the worker itself is the attacker's (a script standing in for pdf.js gone wrong). It may see no
// API key, and nothing it sends (a lie about a field, a gigantic or unknown message, a flood, an answer
// out of turn) reaches the host's code as if it were true: the worker is ended and the document fails
// with one sentence. Control: a worker that follows the protocol is read normally.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pdfRefusal } from '../../../support/pdfRefusal';
import { newPdfSession, openPdf, pdfPageText } from '../../../../src/core/context/pdfDocument';

const MB = 1024 * 1024;

/** A worker script: `onOpen` runs at start, `onPage(request)` for each page asked. */
function workerScript(onOpen: string, onPage = 'post({ kind: "page", id: request.id, text: "page " + request.page, truncated: false });'): string {
  return `const { parentPort } = require('node:worker_threads');
const post = (m) => parentPort.postMessage(m);
${onOpen}
parentPort.on('message', (request) => { ${onPage} });
`;
}

describe('a hostile PDF worker', () => {
  let dir: string;
  let pdf: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'rlm-pdf-hostile-'));
    pdf = join(dir, 'doc.pdf');
    writeFileSync(pdf, '%PDF-1.4\n% the worker below never parses it\n');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  let n = 0;
  const worker = (source: string): string => {
    const path = join(dir, `worker${++n}.js`);
    writeFileSync(path, source);
    return path;
  };
  const options = (workerPath: string, limits = {}) => ({ maxFileBytes: MB, workerPath, limits: { openMs: 20_000, pageMs: 20_000, ...limits } });
  const refusal = pdfRefusal;

  it('sees none of the host\'s environment (API keys)', async () => {
    process.env.RLM_ATTACK_SECRET = 'sk-attack-test-secret';
    try {
      const path = worker(workerScript('post({ kind: "open-failed", reason: "malformed", detail: "env: " + (process.env.RLM_ATTACK_SECRET ?? "none") + " " + Object.keys(process.env).length });'));
      const error = await refusal(openPdf('doc.pdf', pdf, newPdfSession(), options(path)));
      assert.doesNotMatch(error.message, /sk-attack-test-secret/);
      assert.match(error.message, /env: none 0/);
    } finally {
      delete process.env.RLM_ATTACK_SECRET;
    }
  });

  it('cannot pass a reason or a detail the protocol does not allow', async () => {
    const path = worker(workerScript('post({ kind: "open-failed", reason: "too-many-pages", detail: "x".repeat(5 * 1024 * 1024) });'));
    const error = await refusal(openPdf('doc.pdf', pdf, newPdfSession(), options(path)));
    assert.equal(error.reason, 'crashed');
    assert.match(error.message, /sent a malformed message/);
    assert.ok(error.message.length < 400, `${error.message.length} characters`);
  });

  it('cannot add fields, lie about a page count or send an unknown kind', async () => {
    for (const message of ['{ kind: "opened", pages: 3, extra: { deep: [1, 2, 3] } }', '{ kind: "opened", pages: 1.5 }', '{ kind: "opened", pages: "3" }', '{ kind: "hello" }', '"opened"', '[3]']) {
      const error = await refusal(openPdf('doc.pdf', pdf, newPdfSession(), options(worker(workerScript(`post(${message});`)))));
      assert.equal(error.reason, 'crashed', message);
      assert.match(error.message, /malformed message/, message);
    }
  });

  it('cannot send a page longer than the page limit', async () => {
    const path = worker(workerScript('post({ kind: "opened", pages: 2 });', 'post({ kind: "page", id: request.id, text: "y".repeat(5000), truncated: false });'));
    const session = newPdfSession();
    const error = await refusal(pdfPageText('doc.pdf', pdf, session, 1, options(path, { maxPageChars: 1000 })));
    assert.equal(error.reason, 'crashed');
    assert.match(error.message, /malformed message/);
  });

  it('is ended by a message nobody asked for, so a flood costs one message', async () => {
    // After opening, it posts without end; it would still answer page requests honestly.
    const path = worker(workerScript('post({ kind: "opened", pages: 2 }); globalThis.sent = 0; const flood = () => { for (let i = 0; i < 100; i++) post({ kind: "page", id: 999999, text: "z".repeat(100000), truncated: false }); setImmediate(flood); }; setTimeout(flood, 50);'));
    const session = newPdfSession();
    const doc = await openPdf('doc.pdf', pdf, session, options(path));
    assert.equal(doc.pages, 2);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const error = await refusal(pdfPageText('doc.pdf', pdf, session, 1, options(path)));
    assert.equal(error.reason, 'crashed');
    assert.match(error.message, /sent a message when none was asked for/);
  });

  it('cannot answer another request than the one asked', async () => {
    const path = worker(workerScript('post({ kind: "opened", pages: 2 });', 'post({ kind: "page", id: request.id + 1, text: "forged", truncated: false });'));
    const error = await refusal(pdfPageText('doc.pdf', pdf, newPdfSession(), 1, options(path)));
    assert.equal(error.reason, 'crashed');
    assert.match(error.message, /out of turn/);
  });

  it('control: a worker that follows the protocol is read normally', async () => {
    const path = worker(workerScript('post({ kind: "opened", pages: 2 });'));
    const session = newPdfSession();
    assert.deepEqual(await pdfPageText('doc.pdf', pdf, session, 2, options(path)), { text: 'page 2', truncated: false });
    assert.deepEqual(await pdfPageText('doc.pdf', pdf, session, 1, options(path)), { text: 'page 1', truncated: false });
  });
});
