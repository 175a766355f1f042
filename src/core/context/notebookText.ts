// A Jupyter notebook as the text `context` holds: each cell under a marker line naming its number,
// kind and execution count, its source as written, then its outputs under their own marker lines.
// Text outputs are cut to a head and a tail (a training loop that printed 50,000 lines says so in one
// line); images, widgets and other binary outputs are named with their size, never dumped. The cell
// map says on which line of the text each cell's source starts, so a citation of `x.ipynb#cell=3:2`
// (cell 3, line 2 of its source) finds its line and a line of the text finds its cell.
//
// The input is a neutral cell model, so a notebook read from disk (notebookJson.ts) and one open in
// VS Code's notebook editor (unsaved cells included) become the same text.
import { formatBytes, formatCount } from '../../shared/text/format';

export type NotebookCellKind = 'code' | 'markdown' | 'raw';

/** One output of a code cell, as the notebook holds it. */
export type NotebookOutput =
  /** stdout / stderr. */
  | { kind: 'stream'; name: string; text: string }
  /** execute_result / display_data: a MIME bundle; `text` values hold text, `bytes` the size of the others. */
  | { kind: 'data'; result: boolean; items: Array<{ mime: string; text?: string; bytes: number }> }
  /** `traceback`: the whole text shown (ANSI colour codes are removed here). */
  | { kind: 'error'; ename: string; evalue: string; traceback: string };

export interface NotebookCell {
  kind: NotebookCellKind;
  source: string;
  executionCount?: number;
  outputs: NotebookOutput[];
  /** Names of files attached to a markdown cell (images pasted in). */
  attachments?: string[];
}

export interface NotebookCellSpan {
  /** 1-based line of the cell's marker; its source starts on the next line. */
  markerLine: number;
  /** Lines of source (0 for an empty cell). */
  sourceLines: number;
  /** Last line of the cell's block (its last output line, or its last source line). */
  lastLine: number;
}

/** What the root's metadata says about a notebook (constant size). */
export interface NotebookSummary {
  cells: number;
  code: number;
  markdown: number;
  raw: number;
  /** The kernel's language, when the notebook names it (at most 40 characters). */
  language?: string;
  /** Outputs named but not shown (images, widgets, other binary data). */
  binaryOutputs: number;
  /** Text outputs cut to a head and a tail. */
  truncatedOutputs: number;
}

export interface NotebookText {
  text: string;
  cells: NotebookCellSpan[];
  summary: NotebookSummary;
}

/** A text output longer than this (lines or characters) keeps its head and tail only. */
const OUTPUT_HEAD_LINES = 30;
const OUTPUT_TAIL_LINES = 10;
const OUTPUT_HEAD_CHARS = 4000;
const OUTPUT_TAIL_CHARS = 2000;
/** Text MIME types worth reading, best first: a DataFrame's text/plain says what its HTML says. */
const TEXT_MIMES = ['text/plain', 'text/markdown', 'text/latex', 'application/json', 'text/html'];

// eslint-disable-next-line no-control-regex -- the ANSI colour codes of a traceback are control characters
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** The marker line of cell `n` (1-based): `<<< cell 3: code, In [5] >>>`. */
function cellMarker(n: number, cell: NotebookCell): string {
  const run = cell.kind === 'code' ? (cell.executionCount !== undefined ? `, In [${cell.executionCount}]` : ', not run') : '';
  const attached = cell.attachments?.length ? `, attachments: ${cell.attachments.slice(0, 5).join(', ')}${cell.attachments.length > 5 ? ', …' : ''}` : '';
  return `<<< cell ${n}: ${cell.kind}${run}${attached} >>>`;
}

function linesOf(text: string): string[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A long text output cut to its head and tail, with one line saying what was left out. */
function clipped(text: string): { lines: string[]; truncated: boolean } {
  const lines = linesOf(text);
  if (lines.length <= OUTPUT_HEAD_LINES + OUTPUT_TAIL_LINES && text.length <= OUTPUT_HEAD_CHARS + OUTPUT_TAIL_CHARS) return { lines, truncated: false };
  const head = takeLines(lines, 0, OUTPUT_HEAD_LINES, OUTPUT_HEAD_CHARS, 1);
  const tail = takeLines(lines, lines.length - 1, OUTPUT_TAIL_LINES, OUTPUT_TAIL_CHARS, -1).reverse();
  const shownChars = [...head, ...tail].reduce((n, l) => n + l.length + 1, 0);
  const omittedLines = Math.max(0, lines.length - head.length - tail.length);
  const omittedChars = Math.max(0, text.length - shownChars);
  return { lines: [...head, `[… ${formatCount(omittedLines)} lines, ${formatCount(omittedChars)} characters of this output not shown …]`, ...tail], truncated: true };
}

/** Up to `count` lines from `start` going `step`, within `chars` (a long line is cut, marked with …). */
function takeLines(lines: string[], start: number, count: number, chars: number, step: 1 | -1): string[] {
  const out: string[] = [];
  let left = chars;
  for (let i = start; i >= 0 && i < lines.length && out.length < count && left > 0; i += step) {
    const line = lines[i]!;
    if (line.length <= left) out.push(line);
    else out.push(step === 1 ? `${line.slice(0, left)}…` : `…${line.slice(line.length - left)}`);
    left -= line.length + 1;
  }
  return out;
}

/** The marker and lines of one output; `binary` counts what was named and not shown. */
function outputBlock(cellNumber: number, outputNumber: number, output: NotebookOutput, counts: { binary: number; truncated: number }): string[] {
  const at = `<<< cell ${cellNumber} output ${outputNumber}`;
  if (output.kind === 'stream') {
    const body = clipped(output.text);
    if (body.truncated) counts.truncated++;
    return [`${at}: ${output.name} >>>`, ...body.lines];
  }
  if (output.kind === 'error') {
    const body = clipped(output.traceback.replace(ANSI, ''));
    if (body.truncated) counts.truncated++;
    return [`${at}: error ${output.ename} >>>`, ...body.lines];
  }
  const shown = TEXT_MIMES.map((mime) => output.items.find((item) => item.mime === mime && item.text !== undefined)).find((item) => item !== undefined);
  const others = output.items.filter((item) => item !== shown);
  // Other text renderings of the same result say nothing new; binary ones are named so the model knows a plot was there.
  const named = others.filter((item) => item.text === undefined || !shown);
  counts.binary += named.filter((item) => item.text === undefined).length;
  const kind = output.result ? 'result' : 'display';
  const namedWords = named.map((item) => `${item.mime} (${formatBytes(item.bytes)})`).join(', ');
  if (!shown) return [`${at}: ${kind}, ${namedWords || 'empty'}, not shown >>>`];
  const body = clipped(shown.text!);
  if (body.truncated) counts.truncated++;
  return [`${at}: ${kind} ${shown.mime}${namedWords ? `; also ${namedWords}, not shown` : ''} >>>`, ...body.lines];
}

/** The notebook's text, its cell map and its summary. */
export function notebookText(cells: readonly NotebookCell[], language?: string): NotebookText {
  const out: string[] = [];
  const spans: NotebookCellSpan[] = [];
  const counts = { binary: 0, truncated: 0 };
  const kinds = { code: 0, markdown: 0, raw: 0 };
  cells.forEach((cell, index) => {
    const n = index + 1;
    kinds[cell.kind]++;
    if (index > 0) out.push('');
    out.push(cellMarker(n, cell));
    const markerLine = out.length;
    const source = cell.source === '' ? [] : linesOf(cell.source);
    out.push(...source);
    cell.outputs.forEach((output, o) => out.push(...outputBlock(n, o + 1, output, counts)));
    spans.push({ markerLine, sourceLines: source.length, lastLine: out.length });
  });
  const summary: NotebookSummary = { cells: cells.length, ...kinds, binaryOutputs: counts.binary, truncatedOutputs: counts.truncated, ...(language ? { language: language.slice(0, 40) } : {}) };
  return { text: out.length ? `${out.join('\n')}\n` : '', cells: spans, summary };
}

/** Where cell `cell` (1-based), line `line` of its source is in the text; undefined when there is no such cell or line. */
export function textLineOfCell(spans: readonly NotebookCellSpan[], cell: number, line: number): number | undefined {
  const span = spans[cell - 1];
  if (!span || line < 1 || line > span.sourceLines) return undefined;
  return span.markerLine + line;
}

/**
 * The cell holding line `line` of the text: `line` is set when it is a line of the cell's source, absent
 * for its marker or outputs (and for the blank line between cells, which belongs to the cell before).
 */
export function cellOfTextLine(spans: readonly NotebookCellSpan[], line: number): { cell: number; line?: number } | undefined {
  let lo = 0;
  let hi = spans.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const span = spans[mid]!;
    if (line < span.markerLine) hi = mid - 1;
    else if (mid + 1 < spans.length && line >= spans[mid + 1]!.markerLine) lo = mid + 1;
    else {
      const inSource = line - span.markerLine;
      return { cell: mid + 1, ...(inSource >= 1 && inSource <= span.sourceLines ? { line: inSource } : {}) };
    }
  }
  return undefined;
}
