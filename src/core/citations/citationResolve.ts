// Resolves the `path:line` citations of an answer against the `context` the run bound: each becomes a
// reference holding the cited line(s), or an unresolved citation with the reason. Nothing is dropped
// silently. The text is read from the same source that was bound (files on disk are read again, with
// the same checks as binding); it is data, stored and shown as text only.
import { basename } from 'node:path';
import type { ContextSource } from '../context/contextTypes';
import { textOfRanges } from './lineRanges';
import { plannedFileScanner } from './plannedFileScan';
import type { PlannedFileScan } from './plannedFileScan';
import type { LineRange } from './lineRanges';
import { utf8Chunks } from '../context/utf8Chunks';
import type { Reference, UnresolvedCitation } from '../trajectory/events';
import { findCitations } from './citationParse';
import type { Citation } from './citationParse';
import { notebookCellsOf } from '../context/notebookScan';
import { cellOfTextLine, textLineOfCell } from '../context/notebookText';
import type { NotebookCellSpan } from '../context/notebookText';
import { folderPageOf, isPdfDocument, rereadPdfPage, rereadPdfTextForm } from '../context/pdfInFolder';
import type { PlannedPdfDocument } from '../context/pdfInFolder';
import { parsePdfPageKey, pdfPageKey } from '../context/pdfPages';

/** The cited text kept per reference: a range is clipped to this many characters. */
const REFERENCE_TEXT_MAX_CHARS = 2000;

/** Hands one file's bytes over in order; false when the file is missing or cannot be read whole. */
type FileScan = (onChunk: (bytes: Uint8Array) => void) => Promise<boolean>;

export interface CitationLookup {
  /** Canonical paths of the context (for a single text: the one name it is shown by). */
  paths: string[];
  /** Other names that mean a path: `context`, a single file's base name. */
  aliases: Map<string, string>;
  /**
   * Streams a path's bytes (false: missing or unreadable). Nothing is kept: a scan of the whole input,
   * or of a 2 GB file for one cited line, holds one chunk at a time. `onChunk` must copy what it keeps.
   */
  scan(path: string, onChunk: (bytes: Uint8Array) => void): Promise<boolean>;
  /** For a Jupyter notebook, where each cell sits in its text form; undefined for any other file. */
  notebookCells?(path: string): Promise<NotebookCellSpan[] | undefined>;
  /**
   * PDFs of a folder, each one entry read as its pages under marker lines: cited by page
   * (`docs/design.pdf#page=18:3`), which `scan` also answers with that page's text.
   */
  pdfDocuments?: string[];
  /** For a folder's PDF, the line of each page's marker in its text form (index 0: page 1). */
  pdfMarkerLines?(path: string): Promise<number[] | undefined>;
}

export interface ResolvedCitations {
  references: Reference[];
  unresolved: UnresolvedCitation[];
}

/** The lookup for a bound source (a single text without a label is cited as `context`). */
export function lookupForSource(source: ContextSource, scanPlanned: PlannedFileScan = plannedFileScanner()): CitationLookup {
  const files = new Map<string, FileScan>();
  const cells = new Map<string, () => Promise<NotebookCellSpan[] | undefined>>();
  const pdfs = new Map<string, PlannedPdfDocument>();
  const aliases = new Map<string, string>();
  let single: string | undefined;
  const inMemory = (content: Uint8Array | string): FileScan => async (onChunk) => {
    if (typeof content === 'string') for (const piece of utf8Chunks(content)) onChunk(piece);
    else onChunk(content);
    return true;
  };
  if (source.kind === 'text') {
    single = source.label ?? 'context';
    files.set(single, inMemory(source.text));
    const notebook = source.notebook;
    if (notebook) cells.set(single, async () => notebook.cells);
  } else if (source.kind === 'files') {
    for (const file of source.files) files.set(file.path, inMemory(file.content));
  } else {
    const { plan } = source;
    for (const file of plan.files) {
      files.set(file.path, (onChunk) => scanPlanned(file, Math.max(plan.maxFileBytes, file.bytes), onChunk));
      if (file.notebook) cells.set(file.path, () => notebookCellsOf(file));
      if (isPdfDocument(file)) pdfs.set(file.path, file);
    }
    if (plan.shape === 'text' && plan.files[0]) single = plan.files[0].path;
  }
  if (single !== undefined) {
    aliases.set('context', single);
    aliases.set(basename(single), single);
  }
  const scanPage = async (path: string, onChunk: (bytes: Uint8Array) => void): Promise<boolean> => {
    const at = folderPageOf(path, pdfs);
    const text = at ? await rereadPdfPage(at.document, at.page) : undefined;
    if (text === undefined) return false;
    for (const piece of utf8Chunks(text)) onChunk(piece);
    return true;
  };
  return {
    paths: [...files.keys()],
    aliases,
    scan: (path, onChunk) => files.get(path)?.(onChunk) ?? scanPage(path, onChunk),
    notebookCells: (path) => cells.get(path)?.() ?? Promise.resolve(undefined),
    ...(pdfs.size > 0
      ? {
          pdfDocuments: [...pdfs.keys()],
          pdfMarkerLines: async (path: string) => {
            const file = pdfs.get(path);
            return file ? (await rereadPdfTextForm(file, Math.max(source.kind === 'plan' ? source.plan.maxFileBytes : 0, file.bytes)))?.markerLines : undefined;
          },
        }
      : {}),
  };
}

/**
 * Resolves every citation in `answer`; the order of the answer is kept in both lists. Each cited file
 * is read once, streamed, however many of its lines are cited.
 */
export async function resolveCitations(answer: string, lookup: CitationLookup): Promise<ResolvedCitations> {
  const known = new Set(lookup.paths);
  const citations = findCitations(answer, (path) => known.has(normalize(path)) || lookup.aliases.has(normalize(path)));
  const cellsOf = cachedCells(lookup);
  const markers = new Map<string, Promise<number[] | undefined>>();
  const markersOf = (path: string): Promise<number[] | undefined> => {
    let found = markers.get(path);
    if (!found) markers.set(path, (found = lookup.pdfMarkerLines?.(path) ?? Promise.resolve(undefined)));
    return found;
  };
  const checked = await Promise.all(
    citations.map(async (citation) => {
      const page = folderPdfPage(citation, lookup);
      if (page) return page;
      const outcome = checkOne(citation, lookup, known);
      if ('reason' in outcome) return outcome;
      // A line of a folder PDF's text form is said in its page's terms, as the page is cited and opened.
      if (lookup.pdfDocuments?.includes(outcome.path)) return onPage(citation, outcome, await markersOf(outcome.path));
      const spans = await cellsOf(outcome.path);
      if (citation.cell) return cellCitation(citation, citation.cell, outcome.path, spans);
      // A line of a notebook's text form is also said in its cell's terms.
      return spans ? { ...outcome, ...notebookCellOf(spans, outcome.line, outcome.endLine) } : outcome;
    }),
  );
  const byPath = new Map<string, Array<{ index: number; range: LineRange }>>();
  checked.forEach((outcome, index) => {
    if ('reason' in outcome) return;
    const wanted = byPath.get(outcome.path) ?? [];
    wanted.push({ index, range: { from: outcome.line, to: outcome.endLine ?? outcome.line } });
    byPath.set(outcome.path, wanted);
  });
  const outcomes: Array<Reference | UnresolvedCitation> = checked.map((outcome) => ('reason' in outcome ? outcome : { ...outcome, text: '' }));
  for (const [path, wanted] of byPath) {
    const texts = await textOfRanges((onChunk) => lookup.scan(path, onChunk), wanted.map((w) => w.range), REFERENCE_TEXT_MAX_CHARS);
    wanted.forEach(({ index }, i) => {
      const citation = citations[index]!;
      const miss = missOf(citation);
      const text = texts?.[i];
      if (text?.kind === 'short' && text.lines === 0 && citation.wholePage) {
        // A page cited as a whole (`design.pdf#page=5`) that has no text (a scan, a figure) is still
        // that page: it resolves and opens there; it has no line to quote.
        outcomes[index] = { ...(outcomes[index] as Reference), text: '' };
        return;
      }
      outcomes[index] = !text ? miss('unreadable', `${path} could not be read again`) : text.kind === 'short' ? miss('line-out-of-range', `${path} has ${text.lines} line${text.lines === 1 ? '' : 's'}`) : { ...(outcomes[index] as Reference), text: text.text };
    });
  }
  const references: Reference[] = [];
  const unresolved: UnresolvedCitation[] = [];
  const seen = new Set<string>();
  for (const outcome of outcomes) {
    if ('reason' in outcome) {
      unresolved.push(outcome);
      continue;
    }
    const key = `${outcome.path}\n${outcome.line}\n${outcome.endLine ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    references.push(outcome);
  }
  return { references, unresolved };
}

/** Cell maps, read once per notebook however many of its cells are cited. */
function cachedCells(lookup: CitationLookup): (path: string) => Promise<NotebookCellSpan[] | undefined> {
  const cache = new Map<string, Promise<NotebookCellSpan[] | undefined>>();
  return (path) => {
    let found = cache.get(path);
    if (!found) {
      found = lookup.notebookCells?.(path) ?? Promise.resolve(undefined);
      cache.set(path, found);
    }
    return found;
  };
}

/** `notebookCell` for lines `line`..`endLine` of a notebook's text form. */
function notebookCellOf(spans: readonly NotebookCellSpan[], line: number, endLine: number | undefined): Pick<Reference, 'notebookCell'> {
  const first = cellOfTextLine(spans, line);
  if (!first) return {};
  const last = endLine !== undefined ? cellOfTextLine(spans, endLine) : first;
  if (!last || last.cell !== first.cell) return { notebookCell: { cell: first.cell, ...(last ? { endCell: last.cell } : {}) } };
  if (first.line === undefined || last.line === undefined) return { notebookCell: { cell: first.cell } };
  return { notebookCell: { cell: first.cell, line: first.line, ...(last.line !== first.line ? { endLine: last.line } : {}) } };
}

/** A citation written as `x.ipynb#cell=N[:L[-M]]`: the lines of the text form it means, or why there are none. */
function cellCitation(citation: Citation, cell: NonNullable<Citation['cell']>, path: string, spans: readonly NotebookCellSpan[] | undefined): Omit<Reference, 'text'> | UnresolvedCitation {
  const miss = missOf(citation);
  if (!spans) return miss('unreadable', `${path} could not be read again as a notebook`);
  const span = spans[cell.cell - 1];
  if (!span || cell.cell < 1) return miss('line-out-of-range', `${path} has ${spans.length} cell${spans.length === 1 ? '' : 's'}`);
  if (cell.line === undefined) {
    // A whole cell: its marker, source and outputs.
    return { path, line: span.markerLine, ...(span.lastLine > span.markerLine ? { endLine: span.lastLine } : {}), notebookCell: { cell: cell.cell } };
  }
  const last = cell.endLine ?? cell.line;
  if (last < cell.line) return miss('bad-range', `the range ends (${last}) before it starts (${cell.line})`);
  const from = textLineOfCell(spans, cell.cell, cell.line);
  const to = textLineOfCell(spans, cell.cell, last);
  if (from === undefined || to === undefined) return miss('line-out-of-range', `cell ${cell.cell} of ${path} has ${span.sourceLines} line${span.sourceLines === 1 ? '' : 's'} of source`);
  return {
    path,
    line: from,
    ...(cell.endLine !== undefined ? { endLine: to } : {}),
    notebookCell: { cell: cell.cell, line: cell.line, ...(cell.endLine !== undefined ? { endLine: cell.endLine } : {}) },
  };
}

/**
 * A citation of a page of a folder's PDF (`design.pdf#page=18:3`, the document matched as any path is):
 * the reference names the page, as for a PDF asked about alone. Undefined when it names no such page.
 */
function folderPdfPage(citation: Citation, lookup: CitationLookup): Omit<Reference, 'text'> | UnresolvedCitation | undefined {
  const key = parsePdfPageKey(normalize(citation.path));
  const documents = lookup.pdfDocuments;
  if (!key || !documents) return undefined;
  const match = matchPath(key.file, { paths: documents, aliases: new Map() }, new Set(documents));
  if (match.kind === 'none') return undefined;
  if (match.kind === 'many') return missOf(citation)('ambiguous-path', `${key.file} could be ${match.paths.slice(0, 3).join(', ')}${match.paths.length > 3 ? ', …' : ''}`);
  const page = pdfPageKey(match.path, key.page);
  return checkOne({ ...citation, path: page }, { paths: [page], aliases: new Map() }, new Set([page]));
}

/** A line (range) of a folder PDF's text form, as the page it falls on and the line within that page. */
function onPage(citation: Citation, outcome: Omit<Reference, 'text'>, markerLines: readonly number[] | undefined): Omit<Reference, 'text'> | UnresolvedCitation {
  if (!markerLines || markerLines.length === 0) return missOf(citation)('unreadable', `${outcome.path} could not be read again as a PDF`);
  let index = 0;
  while (index + 1 < markerLines.length && markerLines[index + 1]! <= outcome.line) index++;
  const marker = markerLines[index]!;
  const next = markerLines[index + 1];
  // A marker line cites its page from the first line; a range is kept within the page it starts on.
  const line = Math.max(1, outcome.line - marker);
  const last = outcome.endLine !== undefined ? Math.max(line, (next !== undefined ? Math.min(outcome.endLine, next - 1) : outcome.endLine) - marker) : undefined;
  return { path: pdfPageKey(outcome.path, index + 1), line, ...(last !== undefined && last !== line ? { endLine: last } : {}) };
}

const missOf =
  ({ raw, path, line, endLine }: Citation) =>
  (reason: UnresolvedCitation['reason'], detail: string): UnresolvedCitation => ({ citation: raw, path, line, ...(endLine !== undefined ? { endLine } : {}), reason, detail });

/** Everything but the text: which file, and whether the line numbers can be right at all. */
function checkOne(citation: Citation, lookup: Pick<CitationLookup, 'paths' | 'aliases'>, known: Set<string>): Omit<Reference, 'text'> | UnresolvedCitation {
  const { line, endLine } = citation;
  const miss = missOf(citation);
  const match = matchPath(normalize(citation.path), lookup, known);
  if (match.kind === 'none') return miss('unknown-path', `no file ${citation.path} in the context`);
  if (match.kind === 'many') return miss('ambiguous-path', `${citation.path} could be ${match.paths.slice(0, 3).join(', ')}${match.paths.length > 3 ? ', …' : ''}`);
  if (line < 1) return miss('line-out-of-range', 'lines are numbered from 1');
  if (endLine !== undefined && endLine < line) return miss('bad-range', `the range ends (${endLine}) before it starts (${line})`);
  return { path: match.path, line, ...(endLine !== undefined ? { endLine } : {}) };
}

function normalize(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}

type PathMatch = { kind: 'one'; path: string } | { kind: 'none' } | { kind: 'many'; paths: string[] };

/** Exact path, an alias, or else the one path ending with the cited one (`a.ts` for `src/a.ts`). */
function matchPath(path: string, lookup: Pick<CitationLookup, 'paths' | 'aliases'>, known: Set<string>): PathMatch {
  if (known.has(path)) return { kind: 'one', path };
  const alias = lookup.aliases.get(path);
  if (alias !== undefined) return { kind: 'one', path: alias };
  const suffix = `/${path.replace(/^\/+/, '')}`;
  const candidates = lookup.paths.filter((p) => `/${p}`.endsWith(suffix));
  if (candidates.length === 1) return { kind: 'one', path: candidates[0]! };
  return candidates.length > 1 ? { kind: 'many', paths: candidates } : { kind: 'none' };
}
