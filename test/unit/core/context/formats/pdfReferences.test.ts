// PDF pages in references and metadata: how a page is cited and parsed back, how citations of pages
// resolve against a PDF's `context` (a dict of `name.pdf#page=N`), and how the metadata says which
// pages have no text in a constant size.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findCitations } from '../../../../../src/core/citations/citationParse';
import { lookupForSource, resolveCitations } from '../../../../../src/core/citations/citationResolve';
import { LineWindowCollector } from '../../../../../src/core/citations/lineWindowCollector';
import { describeInputFormat } from '../../../../../src/core/context/inputFormatText';
import { withPageFacts } from '../../../../../src/core/context/pdfPlan';
import { describePageRanges, isPdfPath, parsePdfPageKey, pdfPageKey } from '../../../../../src/core/context/pdfPages';
import { boundNote, describeContext } from '../../../../../src/core/loop/prompts';
import type { ContextMetadata } from '../../../../../src/core/context/contextTypes';

describe('PDF page references', () => {
  it('names a page as the fragment viewers open at, and parses it back', () => {
    assert.equal(pdfPageKey('docs/design.pdf', 18), 'docs/design.pdf#page=18');
    assert.deepEqual(parsePdfPageKey('docs/design.pdf#page=18'), { file: 'docs/design.pdf', page: 18 });
    assert.deepEqual(parsePdfPageKey('Report.PDF#page=2'), { file: 'Report.PDF', page: 2 });
    for (const notAPage of ['design.pdf', 'design.pdf#page=0', 'design.pdf#page=x', 'notes.txt#page=3', 'design.pdf#page=3:4']) assert.equal(parsePdfPageKey(notAPage), undefined, notAPage);
    assert.ok(isPdfPath('a/B.Pdf'));
    assert.ok(!isPdfPath('a/pdf.txt'));
  });

  it('finds page citations with and without a line, in the order written, beside ordinary ones', () => {
    const text = 'The budget is on design.pdf#page=2:2 (see design.pdf#page=5, and lines design.pdf#page=7:1-3); also src/a.ts:4. Not a page: design.pdf#pagex and notes.txt#page=3.';
    const found = findCitations(text, () => false).map((c) => [c.path, c.line, c.endLine]);
    assert.deepEqual(found, [
      ['design.pdf#page=2', 2, undefined],
      ['design.pdf#page=5', 1, undefined],
      ['design.pdf#page=7', 1, 3],
      ['src/a.ts', 4, undefined],
    ]);
  });

  it('resolves a page citation to the line of that page, and flags a line past the page', async () => {
    const source = {
      kind: 'files' as const,
      files: [
        { path: 'design.pdf#page=1', content: 'Design overview\nThe cache holds 42 entries.' },
        { path: 'design.pdf#page=2', content: 'Second page\nERROR budget is 3 percent' },
      ],
    };
    const { references, unresolved } = await resolveCitations('Budget: design.pdf#page=2:2. Cache: design.pdf#page=1:2. Nope: design.pdf#page=2:9, design.pdf#page=9:1.', lookupForSource(source));
    assert.deepEqual(
      references.map((r) => [r.path, r.line, r.text]),
      [
        ['design.pdf#page=2', 2, 'ERROR budget is 3 percent'],
        ['design.pdf#page=1', 2, 'The cache holds 42 entries.'],
      ],
    );
    assert.deepEqual(
      unresolved.map((u) => [u.path, u.reason]),
      [
        ['design.pdf#page=2', 'line-out-of-range'],
        ['design.pdf#page=9', 'unknown-path'],
      ],
    );
  });
});

describe('PDF metadata', () => {
  it('lists pages without text as ranges, at most 20 of them, then counts the rest', () => {
    assert.equal(describePageRanges([9, 3, 7, 8]), '3, 7–9');
    assert.equal(describePageRanges([1]), '1');
    const everyOther = Array.from({ length: 30 }, (_, i) => i * 2 + 1);
    const text = describePageRanges(everyOther);
    assert.ok(text.startsWith('1, 3, 5,'));
    assert.ok(text.endsWith('39, and 10 more pages'), text);
    // Constant size: a 10,000-page scan says as much as a 40-page one.
    const many = describePageRanges(Array.from({ length: 10_000 }, (_, i) => i * 3 + 1));
    assert.ok(many.length < 200, many);
  });

  it('finds the pages read without text from what was bound', () => {
    const format = withPageFacts({ pdf: { pages: 5 } }, [
      { path: 'd.pdf#page=1', bytes: 40 },
      { path: 'd.pdf#page=2', bytes: 0 },
      { path: 'd.pdf#page=3', bytes: 0 },
      { path: 'd.pdf#page=4', bytes: 12 },
      { path: 'd.pdf#page=5', bytes: 0 },
    ]);
    assert.deepEqual(format.pdf, { pages: 5, textlessPages: '2–3, 5', textlessCount: 3 });
    assert.deepEqual(withPageFacts({ compressedFiles: 2 }, [{ path: 'a.gz', bytes: 0 }]), { compressedFiles: 2 }, 'only a PDF has pages');
  });

  it('tells the root it is a PDF, how pages are keyed and cited, and which have no text', () => {
    const meta: ContextMetadata = {
      type: 'dict',
      totalChars: 89,
      totalBytes: 89,
      fileCount: 5,
      prefix: 'Design overview',
      files: [{ path: 'design.pdf#page=1', chars: 44 }],
      filesOmitted: 4,
      invalidUtf8Replacements: 0,
      mode: 'eager',
      format: { pdf: { pages: 5, textlessPages: '3–4', textlessCount: 2 } },
    };
    const told = describeContext(meta);
    assert.match(told, /The input is a PDF of 5 pages, its text extracted page by page: `context` maps `name\.pdf#page=N` to page N's text/);
    assert.match(told, /Cite a page as `name\.pdf#page=N`, or a line within it as `name\.pdf#page=N:LINE`/);
    assert.match(told, /Pages without text \(scanned or images only; their text is empty\): 3–4\./);
    // Told before binding (no page read yet), the root learns the pages without text with its first observation.
    const shown = { ...meta, approximate: true, format: { pdf: { pages: 5 } } };
    assert.match(boundNote(shown, meta) ?? '', /Pages without text \(scanned or images only\): 3–4\./);
  });

  it('names the format for rlm show and the trajectory view, and ignores what a hostile record puts there', () => {
    assert.equal(describeInputFormat({ pdf: { pages: 40, textlessPages: '3, 7–9', textlessCount: 4 } }), 'a PDF of 40 pages, read page by page; pages without text: 3, 7–9');
    assert.equal(describeInputFormat({ pdf: { pages: 1 } }), 'a PDF of 1 page, read page by page');
    assert.equal(describeInputFormat({ pdf: { pages: 'many' } } as never), undefined);
    assert.equal(describeInputFormat({ pdf: { pages: 2, textlessPages: 'x'.repeat(5000) } })?.length, 'a PDF of 2 pages, read page by page; pages without text: '.length + 200);
  });
});

describe('a window of lines from text that arrives in pieces', () => {
  it('keeps only the window, across pieces cut mid-line, and says when it is complete', () => {
    const text = Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n');
    const bytes = new TextEncoder().encode(text);
    const window = new LineWindowCollector(50, 51, 2);
    let complete = false;
    for (let at = 0; at < bytes.length && !complete; at += 7) complete = window.push(bytes.subarray(at, at + 7));
    assert.ok(complete, 'complete once line 53 has ended');
    assert.deepEqual(window.result(), { firstLine: 48, lastLine: 53, text: 'line 48\nline 49\nline 50\nline 51\nline 52\nline 53' });
    const short = new LineWindowCollector(2, 2, 5);
    assert.equal(short.push(new TextEncoder().encode('a\nb\nc')), false);
    assert.deepEqual(short.result(), { firstLine: 1, lastLine: 3, text: 'a\nb\nc' });
  });

  it('resolves a page without text cited as a whole (a scan), but not a line of it', async () => {
    const source = {
      kind: 'files' as const,
      files: [
        { path: 'design.pdf#page=1', content: 'Design overview' },
        { path: 'design.pdf#page=2', content: '' },
      ],
    };
    const { references, unresolved } = await resolveCitations('The diagram is on design.pdf#page=2. Its caption design.pdf#page=2:3 is not text.', lookupForSource(source));
    assert.deepEqual(
      references.map((r) => [r.path, r.line, r.text]),
      [['design.pdf#page=2', 1, '']],
    );
    assert.deepEqual(
      unresolved.map((u) => [u.path, u.line, u.reason]),
      [['design.pdf#page=2', 3, 'line-out-of-range']],
    );
  });
});
