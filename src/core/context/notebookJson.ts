// Reads a `.ipynb` file's bytes as a Jupyter notebook (nbformat 4), refusing what is not one with a
// sentence that says what is wrong. The bytes are hostile: before JSON.parse, a scan over the bytes
// (no allocation per value) refuses a file past the size limit, nested past any notebook's depth or
// holding more objects and arrays than any notebook does, so `[[[[…` or a million tiny objects cannot
// take the process's memory or stack. After parsing, only the fields a notebook has are read, each
// checked for its type; everything else (metadata, widget state) is ignored.
import type { NotebookCell, NotebookCellKind, NotebookOutput } from './notebookText';
import { formatCount } from '../../shared/text/format';

/** A notebook larger than this on disk is refused (JSON.parse holds it about three times over). */
export const NOTEBOOK_MAX_BYTES = 64 * 1024 * 1024;
/** Real notebooks nest 6-10 deep (widget state a little more). */
const MAX_DEPTH = 64;
/** Objects and arrays in all: a notebook of 10,000 cells with outputs holds well under 200,000. */
const MAX_CONTAINERS = 1_000_000;
/** Values in all (counted by their separators): a notebook's are mostly one string per line of source or output. */
const MAX_VALUES = 5_000_000;
const MAX_CELLS = 100_000;

/** Why bytes are not a notebook that can be read: said in one sentence (`detail`), without the file's name. */
export class NotebookShapeError extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'NotebookShapeError';
  }
}

/** Scans JSON bytes for nesting and container count without building anything. */
function checkJsonShape(bytes: Uint8Array): void {
  let depth = 0;
  let containers = 0;
  let separators = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c) i++; // a backslash: the next byte is escaped
      else if (b === 0x22) inString = false;
      continue;
    }
    if (b === 0x22) inString = true;
    else if (b === 0x7b || b === 0x5b) {
      depth++;
      containers++;
      if (depth > MAX_DEPTH) throw new NotebookShapeError(`its JSON nests deeper than ${MAX_DEPTH} levels, which no notebook does`);
      if (containers > MAX_CONTAINERS) throw new NotebookShapeError(`its JSON holds more than ${formatCount(MAX_CONTAINERS)} objects and arrays, which no notebook does`);
    } else if (b === 0x7d || b === 0x5d) depth--;
    else if (b === 0x2c && ++separators > MAX_VALUES) throw new NotebookShapeError(`its JSON holds more than ${formatCount(MAX_VALUES)} values, which no notebook does`);
  }
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeWord(value: Json | undefined): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** nbformat's multiline string: a string, or a list of strings joined. */
function multiline(value: Json | undefined, where: string): string {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return (value as string[]).join('');
  throw new NotebookShapeError(`${where} is ${typeWord(value)}, not text`);
}

/** The size of a MIME bundle value as stored (base64 for images, JSON for widgets). */
function storedSize(value: Json): number {
  if (typeof value === 'string') return value.length;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return (value as string[]).reduce((n, s) => n + s.length, 0);
  // Bounded: the shape scan capped the containers, and this runs once per bundle entry.
  return JSON.stringify(value).length;
}

/** Above this size (compact), a JSON output is shown compact: its text is cut to a head and a tail anyway. */
const PRETTY_JSON_MAX_CHARS = 64 * 1024;

/**
 * An `application/json` output as text: indented when small. Indenting multiplies a deeply nested value
 * by its depth on every line (a 10 MB notebook nested 55 deep became 300 MB of text, a second of CPU
 * per few MB and 1 GB of memory on the thread that reads it), so a large one stays as compact as the
 * file held it.
 */
function jsonOutputText(value: Json): string {
  const compact = JSON.stringify(value);
  return compact.length > PRETTY_JSON_MAX_CHARS ? compact : JSON.stringify(value, null, 1);
}

function readOutput(raw: Json, where: string): NotebookOutput {
  if (!isObject(raw)) throw new NotebookShapeError(`${where} is ${typeWord(raw)}, not an output`);
  const type = raw['output_type'];
  if (type === 'stream') return { kind: 'stream', name: typeof raw['name'] === 'string' ? raw['name'].slice(0, 40) : 'stream', text: multiline(raw['text'], `${where}'s "text"`) };
  if (type === 'error') {
    const traceback = raw['traceback'];
    const lines = Array.isArray(traceback) ? traceback.filter((l): l is string => typeof l === 'string') : [];
    const ename = typeof raw['ename'] === 'string' ? raw['ename'].slice(0, 200) : 'Error';
    const evalue = typeof raw['evalue'] === 'string' ? raw['evalue'] : '';
    // The traceback ends with the `ename: evalue` line already; without one, that line alone.
    return { kind: 'error', ename, evalue, traceback: lines.length ? lines.join('\n') : `${ename}: ${evalue}` };
  }
  if (type === 'execute_result' || type === 'display_data' || type === 'pyout') {
    const data = raw['data'];
    if (data !== undefined && !isObject(data)) throw new NotebookShapeError(`${where}'s "data" is ${typeWord(data)}, not a MIME bundle`);
    const items = Object.entries(data ?? {}).map(([mime, value]) => {
      const text = mime.startsWith('text/') ? multiline(value, `${where}'s ${mime.slice(0, 60)}`) : mime === 'application/json' ? jsonOutputText(value) : undefined;
      return { mime: mime.slice(0, 80), bytes: storedSize(value), ...(text !== undefined ? { text } : {}) };
    });
    return { kind: 'data', result: type !== 'display_data', items };
  }
  throw new NotebookShapeError(`${where} has output_type ${typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : typeWord(type)}, which notebooks do not have`);
}

function readCell(raw: Json, n: number): NotebookCell {
  const where = `cell ${n}`;
  if (!isObject(raw)) throw new NotebookShapeError(`${where} is ${typeWord(raw)}, not a cell`);
  const type = raw['cell_type'];
  if (type !== 'code' && type !== 'markdown' && type !== 'raw') throw new NotebookShapeError(`${where} has cell_type ${typeof type === 'string' ? JSON.stringify(type.slice(0, 40)) : typeWord(type)}; cells are code, markdown or raw`);
  const kind: NotebookCellKind = type;
  const source = multiline(raw['source'], `${where}'s "source"`);
  const count = raw['execution_count'];
  const outputsRaw = raw['outputs'];
  if (outputsRaw !== undefined && !Array.isArray(outputsRaw)) throw new NotebookShapeError(`${where}'s "outputs" is ${typeWord(outputsRaw)}, not a list`);
  const outputs = kind === 'code' && outputsRaw ? outputsRaw.map((o, i) => readOutput(o, `${where}'s output ${i + 1}`)) : [];
  const attachments = isObject(raw['attachments']) ? Object.keys(raw['attachments']).map((name) => name.slice(0, 80)) : [];
  return {
    kind,
    source,
    outputs,
    ...(typeof count === 'number' && Number.isSafeInteger(count) ? { executionCount: count } : {}),
    ...(attachments.length ? { attachments } : {}),
  };
}

/** The kernel's language as the notebook names it, if it does. */
function languageOf(metadata: Json | undefined): string | undefined {
  if (!isObject(metadata)) return undefined;
  const info = metadata['language_info'];
  if (isObject(info) && typeof info['name'] === 'string') return info['name'];
  const spec = metadata['kernelspec'];
  if (isObject(spec) && typeof spec['language'] === 'string') return spec['language'];
  return undefined;
}

/** The cells of a notebook's bytes, or a NotebookShapeError saying why they are not a notebook. */
export function parseNotebook(bytes: Uint8Array): { cells: NotebookCell[]; language?: string } {
  if (bytes.byteLength > NOTEBOOK_MAX_BYTES) throw new NotebookShapeError(`it is over ${NOTEBOOK_MAX_BYTES / (1024 * 1024)} MB, more than a notebook that can be read as text (clear its outputs, or export it as a script)`);
  checkJsonShape(bytes);
  let root: Json;
  try {
    root = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')) as Json;
  } catch (error) {
    throw new NotebookShapeError(`it is not valid JSON (${error instanceof Error ? error.message.slice(0, 120) : 'parse error'})`);
  }
  if (!isObject(root)) throw new NotebookShapeError(`its JSON is ${typeWord(root)}, not a notebook object`);
  const format = root['nbformat'];
  if (typeof format === 'number' && format < 4) throw new NotebookShapeError(`it is nbformat ${format}; only nbformat 4 is read (open it in Jupyter and save it again to upgrade it)`);
  const cells = root['cells'];
  if (!Array.isArray(cells)) throw new NotebookShapeError(`its "cells" is ${typeWord(cells)}, not a list of cells`);
  if (cells.length > MAX_CELLS) throw new NotebookShapeError(`it has ${formatCount(cells.length)} cells, more than ${formatCount(MAX_CELLS)}`);
  const language = languageOf(root['metadata']);
  return { cells: cells.map((cell, i) => readCell(cell, i + 1)), ...(language ? { language } : {}) };
}

/** True for a file name Jupyter saves notebooks under. */
export function isNotebookPath(path: string): boolean {
  return path.toLowerCase().endsWith('.ipynb');
}
