// `rlm ask` on a folder holding PDFs made here (test/support/pdfMaker.ts), through the built CLI against
// the fake model server: each PDF is one entry, its pages under marker lines; search() finds text inside
// a PDF; a page is cited as `docs/design.pdf#page=2:2` (and a line of the text form is cited as its
// page); an encrypted PDF is left out with its reason and the rest of the folder is read; the metadata,
// `rlm show` and the export count the PDFs and their pages. A folder bound lazily parses no PDF before a
// cell reads one, and says its pages are not read yet.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertCliBuilt, runCli } from './cliProcess';
import { makePdf } from '../../support/pdfMaker';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';

const NOTEBOOK = JSON.stringify({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { language: 'python', name: 'python3', display_name: 'Python 3' } },
  cells: [
    { cell_type: 'markdown', metadata: {}, source: ['# Load'] },
    { cell_type: 'code', metadata: {}, execution_count: 1, source: ['rows = load()\n', 'print(len(rows))'], outputs: [{ output_type: 'stream', name: 'stdout', text: ['1234\n'] }] },
  ],
});

describe('rlm ask on a folder holding PDFs (dist/cli.js)', () => {
  let dir: string;
  let server: FakeModelServer;
  let reply = '';
  const model = (): string[] => ['--provider', 'openai', '--base-url', server.baseUrl, '--model', 'fake'];
  const firstRequest = (since: number): string => server.completionRequests[since]?.rawBody ?? '';

  before(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-pdf-folder-'));
    mkdirSync(join(dir, 'docs'));
    writeFileSync(join(dir, 'docs', 'design.pdf'), makePdf([{ lines: ['Design overview', 'The cache holds 42 entries.'] }, { lines: ['Second page', 'ERROR budget is 3 percent'] }, {}, { lines: ['Last page'] }]));
    writeFileSync(join(dir, 'docs', 'secret.pdf'), makePdf([{ lines: ['the launch code'] }], { encrypted: true }));
    writeFileSync(join(dir, 'docs', 'notes.txt'), 'plain notes\n');
    writeFileSync(join(dir, 'docs', 'analysis.ipynb'), NOTEBOOK);
    server = await startFakeModelServer({ protocol: 'openai', respond: () => reply });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads each PDF as its pages under markers, searches inside it, cites pages, and leaves out an encrypted one with its reason', async () => {
    reply =
      '```repl\n' +
      "hits = search('ERROR budget')\n" +
      "nb = context['docs/analysis.ipynb'].split('\\n')[0]\n" +
      "FINAL(' '.join(sorted(context)) + '|' + repr(context['docs/design.pdf']) + '|' + repr([(h['path'], h['line']) for h in hits]) + '|' + nb + '\\nBudget: docs/design.pdf#page=2:2; overview: docs/design.pdf:3; whole page: design.pdf#page=4')\n" +
      '```';
    const since = server.completionRequests.length;
    const out = await runCli(['ask', 'docs', '-q', 'what is the error budget?', ...model(), '--trajectory', 'docs.rlm.jsonl'], dir, {}, undefined, 120_000);
    assert.equal(out.code, 0, out.stderr);
    const [keys, text, hits, notebook] = out.stdout.split('\n')[0]!.split('|');
    assert.equal(keys, 'docs/analysis.ipynb docs/design.pdf docs/notes.txt', 'the encrypted PDF is left out, the rest is read');
    assert.equal(text, "'<<< page 1 of 4 >>>\\nDesign overview\\nThe cache holds 42 entries.\\n<<< page 2 of 4 >>>\\nSecond page\\nERROR budget is 3 percent\\n<<< page 3 of 4: no text (scanned or images only) >>>\\n<<< page 4 of 4 >>>\\nLast page\\n'");
    assert.equal(hits, "[('docs/design.pdf', 6)]", 'search() finds the text inside the PDF, at its line of the text form');
    assert.match(notebook!, /^<<< cell 1: markdown/, 'a notebook in a folder is read as its text form, not its JSON');
    const told = firstRequest(since);
    assert.match(told, /2 of the files are PDFs, each read as its text, page by page/);
    assert.match(told, /docs\/design\.pdf#page=18:3/);
    const record = readFileSync(join(dir, 'docs.rlm.jsonl'), 'utf8');
    assert.match(record, /"pdfs":\{"files":2,"read":1,"pages":4,"textlessPages":1\}/);
    assert.match(record, /"path":"docs\/secret\.pdf","reason":"unreadable","detail":"docs\/secret\.pdf is encrypted/);
    const shown = await runCli(['show', 'docs.rlm.jsonl'], dir, {}, undefined, 30_000);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /2 PDFs read page by page \(1 read: 4 pages, 1 without text\)/);
    // The page cited, the line of the text form cited as its page, and a whole page by the file's name alone.
    assert.match(shown.stdout, /References: docs\/design\.pdf#page=2:2, docs\/design\.pdf#page=1:2, docs\/design\.pdf#page=4:1/);
    const exported = await runCli(['export', 'docs.rlm.jsonl', '--to', 'md', '-o', 'docs.md'], dir, {}, undefined, 30_000);
    assert.equal(exported.code, 0, exported.stderr);
    const md = readFileSync(join(dir, 'docs.md'), 'utf8');
    assert.match(md, /^- docs\/design\.pdf#page=2:2 — ERROR budget is 3 percent$/m);
    assert.match(md, /^- docs\/design\.pdf#page=1:2 — The cache holds 42 entries\.$/m);
  });

  it('binds a lazy folder without parsing its PDFs first: pages not yet read, a PDF parsed when a cell reads it', async () => {
    reply = "```repl\nhits = search('cache holds')\nFINAL(context_meta()['mode'] + '|' + repr([h['path'] for h in hits]) + '|' + context['docs/design.pdf'].split('\\n')[5])\n```";
    const since = server.completionRequests.length;
    const out = await runCli(['ask', 'docs', '-q', 'how big is the cache?', ...model(), '--context-limit-mb', '0.001', '--trajectory', 'lazy.rlm.jsonl'], dir, {}, undefined, 120_000);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), "lazy|['docs/design.pdf']|ERROR budget is 3 percent");
    const record = readFileSync(join(dir, 'lazy.rlm.jsonl'), 'utf8');
    assert.match(record, /\[rlm\] search: docs\/secret\.pdf was left out: docs\/secret\.pdf is encrypted/, 'an unreadable PDF is named with its reason, not as changed');
    const told = firstRequest(since);
    assert.match(told, /Mode: lazy/);
    assert.match(told, /2 of the files are PDFs.*Their pages are not read yet: each is parsed when first used\./);
    const shown = await runCli(['show', 'lazy.rlm.jsonl'], dir, {}, undefined, 30_000);
    assert.match(shown.stdout, /2 PDFs read page by page \(pages not yet read\)/);
  });
});
