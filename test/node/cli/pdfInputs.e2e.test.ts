// `rlm ask` on PDFs made here (test/support/pdfMaker.ts), through the built CLI against the fake model
// server: a document with pages without text read page by page, references to pages, `rlm show` and the
// markdown export naming them; an encrypted, a damaged, a truncated and a mislabelled file refused in
// one sentence before any model is asked; a 1,000-page document bound lazily, a page extracted when read.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assertCliBuilt, runCli } from './cliProcess';
import { makePdf } from '../../support/pdfMaker';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';

describe('rlm ask on PDFs (dist/cli.js)', () => {
  let dir: string;
  let server: FakeModelServer;
  let reply = '';
  const model = (): string[] => ['--provider', 'openai', '--base-url', server.baseUrl, '--model', 'fake'];
  const firstRequest = (since: number): string => server.completionRequests[since]?.rawBody ?? '';

  before(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-pdf-cli-'));
    writeFileSync(
      join(dir, 'design.pdf'),
      makePdf([{ lines: ['Design overview', 'The cache holds 42 entries.'] }, { lines: ['Second page', 'ERROR budget is 3 percent'] }, {}, {}, { lines: ['Last page (appendix)'] }]),
    );
    writeFileSync(join(dir, 'secret.pdf'), makePdf([{ lines: ['the launch code'] }], { encrypted: true }));
    writeFileSync(join(dir, 'damaged.pdf'), Buffer.from('%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 9 0 R\nthis is where the file was cut'));
    const whole = makePdf([{ lines: ['one'] }, { lines: ['two'] }]);
    writeFileSync(join(dir, 'truncated.pdf'), whole.subarray(0, Math.floor(whole.length / 3)));
    writeFileSync(join(dir, 'notes.pdf'), 'plain text saved with the wrong name\n');
    writeFileSync(join(dir, 'report.pdf'), makePdf(Array.from({ length: 1000 }, (_, i) => ({ lines: [`Report page ${i + 1}`, i === 700 ? 'The magic number is 7331.' : 'Nothing to see here.'] }))));
    server = await startFakeModelServer({ protocol: 'openai', respond: () => reply });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reads each page into context under its page key, says which pages have no text, and cites pages', async () => {
    // The keys are shown without their file name, so that only the two citations at the end cite pages.
    reply = "```repl\nFINAL(' '.join(k.split('#')[1] for k in context) + '|' + repr(context['design.pdf#page=2']) + '|' + repr(context['design.pdf#page=3']) + '\\nBudget: design.pdf#page=2:2; appendix: design.pdf#page=5')\n```";
    const since = server.completionRequests.length;
    const out = await runCli(['ask', 'design.pdf', '-q', 'what is the error budget?', ...model(), '--trajectory', 'design.rlm.jsonl'], dir, {}, undefined, 120_000);
    assert.equal(out.code, 0, out.stderr);
    const [keys, second, third] = out.stdout.split('\n')[0]!.split('|');
    assert.equal(keys, 'page=1 page=2 page=3 page=4 page=5');
    assert.equal(second, "'Second page\\nERROR budget is 3 percent'");
    assert.equal(third, "''", 'a page without text is empty, not left out');
    const told = firstRequest(since);
    assert.match(told, /The input is a PDF of 5 pages, its text extracted page by page/);
    assert.ok(told.includes('Design overview'), 'the prefix is the first page\'s text');
    // The pages without text are known once read: the root learns them with its first observation.
    const record = readFileSync(join(dir, 'design.rlm.jsonl'), 'utf8');
    assert.match(record, /"textlessPages":"3–4"/);
    const shown = await runCli(['show', 'design.rlm.jsonl'], dir, {}, undefined, 30_000);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /Input: +dict, [\d,]+ characters in 5 pages, a PDF of 5 pages, read page by page; pages without text: 3–4/);
    assert.match(shown.stdout, /References: design\.pdf#page=2:2, design\.pdf#page=5:1/);
    const exported = await runCli(['export', 'design.rlm.jsonl', '--to', 'md', '-o', 'design.md'], dir, {}, undefined, 30_000);
    assert.equal(exported.code, 0, exported.stderr);
    const md = readFileSync(join(dir, 'design.md'), 'utf8');
    assert.match(md, /\*\*Input:\*\* a PDF of 5 pages, read page by page; pages without text: 3–4/);
    assert.match(md, /^- design\.pdf#page=2:2 — ERROR budget is 3 percent$/m);
  });

  for (const [file, expected] of [
    ['secret.pdf', /^rlm ask: secret\.pdf is encrypted \(it needs a password to open\), so its text cannot be read\. Save a copy without the password/],
    ['damaged.pdf', /^rlm ask: damaged\.pdf is damaged or not a valid PDF \(.+\); nothing was sent\. Re-export or repair it/],
    ['truncated.pdf', /^rlm ask: truncated\.pdf is damaged or not a valid PDF \(.+\); nothing was sent\./],
    ['notes.pdf', /^rlm ask: notes\.pdf is named \.pdf but is not a PDF \(it does not start with %PDF-\)/],
  ] as const) {
    it(`refuses ${file} in one sentence, before any model is asked`, async () => {
      const since = server.completionRequests.length;
      const out = await runCli(['ask', file, '-q', 'what?', ...model()], dir, {}, undefined, 60_000);
      assert.notEqual(out.code, 0);
      assert.match(out.stderr.trim(), expected);
      assert.equal(out.stderr.trim().split('\n').length, 1, out.stderr);
      assert.equal(server.completionRequests.length, since, 'no model was asked');
    });
  }

  it('binds a 1,000-page PDF lazily: pages are extracted when read, and search() finds a page', async () => {
    reply = "```repl\nhits = search('magic number')\nFINAL(context_meta()['mode'] + '|' + str(len(context)) + '|' + repr(hits[0]['path']) + '|' + context['report.pdf#page=701'].split('\\n')[1])\n```";
    const since = server.completionRequests.length;
    const out = await runCli(['ask', 'report.pdf', '-q', 'what is the magic number?', ...model(), '--trajectory', 'report.rlm.jsonl'], dir, {}, undefined, 180_000);
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout.trim(), "lazy|1000|'report.pdf#page=701'|The magic number is 7331.");
    assert.match(out.stderr, /a PDF of 1000 pages: pages are extracted when used/);
    const told = firstRequest(since);
    assert.match(told, /Mode: lazy/);
    assert.match(told, /The input is a PDF of 1,000 pages/);
  });
});
