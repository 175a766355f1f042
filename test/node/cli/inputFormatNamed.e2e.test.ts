// What a run over a .gz log, a rotated set in a folder, a notebook, a PDF, a folder mixing them and plain
// text says about its input's format, wherever it is looked at: `context_meta()` in a cell (the 'M'
// frame, binding.py), then for the recorded run `rlm show` and both exports (Markdown and notebook),
// which name the format and list the answer's citations in the input's own terms. Through the built CLI
// against the fake model server; the inputs are made here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { assertCliBuilt, runCli } from './cliProcess';
import { makePdf } from '../../support/pdfMaker';
import { startFakeModelServer } from '../../../src/eval/fakeServers/fakeModelServer';
import type { FakeModelServer } from '../../../src/eval/fakeServers/fakeServerTypes';

const LOG = Array.from({ length: 200 }, (_, i) => `2026-12-05T06:00:${String(i % 60).padStart(2, '0')}Z ${i === 2 ? 'ERROR disk full' : 'INFO served'} id=${i}\n`).join('');

const NOTEBOOK = JSON.stringify({
  nbformat: 4,
  nbformat_minor: 5,
  metadata: { kernelspec: { language: 'python', name: 'python3', display_name: 'Python 3' } },
  cells: [
    { cell_type: 'markdown', metadata: {}, source: ['# Load the rows'] },
    { cell_type: 'code', metadata: {}, execution_count: 1, source: ['rows = load()\n', 'print(len(rows))'], outputs: [{ output_type: 'stream', name: 'stdout', text: ['1234\n'] }] },
  ],
});

const PDF = makePdf([{ lines: ['Design overview', 'The cache holds 42 entries.'] }, {}, { lines: ['Last page', 'Budget is 3 percent'] }]);

/** The keys of context_meta() that say what the input is; the cell prints them as JSON, then the answer cites `cite`. */
function replyCiting(cite: string): string {
  return (
    '```repl\nimport json\n' +
    "keys = ['type', 'format', 'format_summary', 'compression', 'compressed_files', 'log_sets', 'notebook', 'notebooks', 'pdf', 'pdfs']\n" +
    'm = context_meta()\n' +
    `FINAL(json.dumps({k: m[k] for k in keys if k in m}) + '\\nSee ${cite}.')\n` +
    '```'
  );
}

describe('the input format named in context_meta(), rlm show and the exports (dist/cli.js)', () => {
  let dir: string;
  let server: FakeModelServer;
  let reply = '';
  const model = (): string[] => ['--provider', 'openai', '--base-url', server.baseUrl, '--model', 'fake'];

  before(async () => {
    assertCliBuilt();
    dir = mkdtempSync(join(tmpdir(), 'rlm-format-named-'));
    writeFileSync(join(dir, 'app.log.gz'), gzipSync(LOG));
    writeFileSync(join(dir, 'notes.txt'), 'plain notes\nsecond line\n');
    writeFileSync(join(dir, 'analysis.ipynb'), NOTEBOOK);
    writeFileSync(join(dir, 'design.pdf'), PDF);
    mkdirSync(join(dir, 'logs'));
    writeFileSync(join(dir, 'logs/app.log'), 'newest line\n');
    writeFileSync(join(dir, 'logs/app.log.1'), 'previous line\n');
    writeFileSync(join(dir, 'logs/app.log.2.gz'), gzipSync('older line\nERROR older failure\n'));
    mkdirSync(join(dir, 'mixed'));
    writeFileSync(join(dir, 'mixed/app.log.gz'), gzipSync(LOG));
    writeFileSync(join(dir, 'mixed/analysis.ipynb'), NOTEBOOK);
    writeFileSync(join(dir, 'mixed/design.pdf'), PDF);
    writeFileSync(join(dir, 'mixed/notes.txt'), 'plain notes\n');
    server = await startFakeModelServer({ protocol: 'openai', respond: () => reply });
  });
  after(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Asks about `target` with a reply that prints what context_meta() says and cites `cite`; the record is `<name>.rlm.jsonl`. */
  async function ask(target: string, cite: string, name: string, extra: string[] = []): Promise<Record<string, unknown>> {
    reply = replyCiting(cite);
    const out = await runCli(['ask', target, '-q', 'what is in it?', ...model(), '--trajectory', `${name}.rlm.jsonl`, ...extra], dir, {}, undefined, 120_000);
    assert.equal(out.code, 0, out.stderr);
    return JSON.parse(out.stdout.split('\n')[0]!) as Record<string, unknown>;
  }

  /** `rlm show`, then the Markdown and notebook exports of the recorded run, as text. */
  async function views(name: string): Promise<{ shown: string; md: string; ipynb: string }> {
    const shown = await runCli(['show', `${name}.rlm.jsonl`], dir, {}, undefined, 30_000);
    assert.equal(shown.code, 0, shown.stderr);
    for (const to of ['md', 'ipynb']) {
      const exported = await runCli(['export', `${name}.rlm.jsonl`, '--to', to, '-o', `${name}.${to}`], dir, {}, undefined, 30_000);
      assert.equal(exported.code, 0, exported.stderr);
    }
    const notebook = JSON.parse(readFileSync(join(dir, `${name}.ipynb`), 'utf8')) as { cells: Array<{ source: string | string[] }> };
    const ipynb = notebook.cells.map((c) => (Array.isArray(c.source) ? c.source.join('') : c.source)).join('\n');
    return { shown: shown.stdout, md: readFileSync(join(dir, `${name}.md`), 'utf8'), ipynb };
  }

  it('a single .gz log: format gzip; show and both exports say it was read decompressed and cite its lines', async () => {
    const meta = await ask('app.log.gz', 'app.log.gz:3', 'gz');
    assert.deepEqual(meta, { type: 'str', format: 'gzip', format_summary: 'read decompressed from gzip', compression: 'gzip' });
    const { shown, md, ipynb } = await views('gz');
    assert.match(shown, /^Input: +str, [\d,]+ characters, read decompressed from gzip$/m);
    assert.match(shown, /References: app\.log\.gz:3\b/);
    for (const text of [md, ipynb]) {
      assert.match(text, /\*\*Input:\*\* read decompressed from gzip/);
      assert.match(text, /^- app\.log\.gz:3 — 2026-12-05T06:00:02Z ERROR disk full id=2$/m);
    }
  });

  it('a rotated set in a folder: one log in parts, oldest first; cited by its part', async () => {
    const meta = await ask('logs', 'logs/app.log.2.gz:2', 'rotated');
    assert.deepEqual(meta, {
      type: 'dict',
      format: 'mixed',
      format_summary: '1 file read decompressed; rotated logs read oldest first: logs/app.log (3 parts)',
      compressed_files: 1,
      log_sets: [{ log: 'logs/app.log', parts: 3 }],
    });
    const { shown, md, ipynb } = await views('rotated');
    assert.match(shown, /rotated logs read oldest first: logs\/app\.log \(3 parts\)/);
    assert.match(shown, /References: logs\/app\.log\.2\.gz:2\b/);
    for (const text of [md, ipynb]) {
      assert.match(text, /\*\*Input:\*\* 1 file read decompressed; rotated logs read oldest first: logs\/app\.log \(3 parts\)/);
      assert.match(text, /^- logs\/app\.log\.2\.gz:2 — ERROR older failure$/m);
    }
  });

  it('a notebook: its cells by kind; cited as a cell', async () => {
    const meta = await ask('analysis.ipynb', 'analysis.ipynb#cell=2:2', 'nb');
    assert.equal(meta.format, 'notebook');
    assert.deepEqual(meta.notebook, { cells: 2, code: 1, markdown: 1, raw: 0, binary_outputs: 0, truncated_outputs: 0, language: 'python' });
    assert.match(String(meta.format_summary), /^a Jupyter notebook \(python\), 2 cells: 1 code, 1 markdown$/);
    const { shown, md, ipynb } = await views('nb');
    assert.match(shown, /^Input: +str, [\d,]+ characters, a Jupyter notebook \(python\), 2 cells: 1 code, 1 markdown$/m);
    assert.match(shown, /References: analysis\.ipynb#cell=2:2\b/);
    for (const text of [md, ipynb]) {
      assert.match(text, /\*\*Input:\*\* a Jupyter notebook \(python\), 2 cells: 1 code, 1 markdown/);
      assert.match(text, /^- analysis\.ipynb#cell=2:2 — print\(len\(rows\)\)$/m);
    }
  });

  it('a PDF: its pages and the pages without text; cited as a page', async () => {
    const meta = await ask('design.pdf', 'design.pdf#page=3:2', 'pdf');
    assert.deepEqual(meta, {
      type: 'dict',
      format: 'pdf',
      format_summary: 'a PDF of 3 pages, read page by page; pages without text: 2',
      pdf: { pages: 3, textless_pages: '2', textless_count: 1 },
    });
    // One file was asked about, whatever its pages: the target says so (the view's "About file design.pdf (1 file, …)").
    assert.match(readFileSync(join(dir, 'pdf.rlm.jsonl'), 'utf8'), /"target":\{"kind":"file","paths":\["design\.pdf"\],"totalBytes":\d+,"fileCount":1,/);
    const { shown, md, ipynb } = await views('pdf');
    assert.match(shown, /^Input: +dict, [\d,]+ characters in 3 pages, a PDF of 3 pages, read page by page; pages without text: 2$/m);
    assert.match(shown, /References: design\.pdf#page=3:2\b/);
    for (const text of [md, ipynb]) {
      assert.match(text, /\*\*Input:\*\* a PDF of 3 pages, read page by page; pages without text: 2/);
      assert.match(text, /^- design\.pdf#page=3:2 — Budget is 3 percent$/m);
    }
  });

  it('a folder mixing them, eager and lazy; and plain text says "text"', async () => {
    const eager = await ask('mixed', 'mixed/notes.txt:1', 'mixed');
    assert.equal(eager.format, 'mixed');
    assert.deepEqual([eager.compressed_files, eager.notebooks, eager.pdfs], [1, 1, { files: 1, read: 1, pages: 3, textless_pages: 1 }]);
    assert.match(String(eager.format_summary), /1 file read decompressed; .*1 PDF read page by page \(3 pages, 1 without text\)/);
    const lazy = await ask('mixed', 'mixed/notes.txt:1', 'mixed-lazy', ['--context-limit-mb', '0.001']);
    assert.equal(lazy.format, 'mixed');
    assert.deepEqual(lazy.pdfs, { files: 1, read: 0, pages: 0, textless_pages: 0 }, 'a lazy folder has not read its PDF when bound');
    assert.deepEqual(await ask('notes.txt', 'notes.txt:2', 'plain'), { type: 'str', format: 'text' });
    const { shown, md } = await views('plain');
    assert.match(shown, /^Input: +str, 24 characters$/m, 'plain text needs no format words');
    assert.match(md, /^- notes\.txt:2 — second line$/m);
  });
});
