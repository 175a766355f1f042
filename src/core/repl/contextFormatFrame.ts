// The 'M' frame that ends every bind before its 'E': what the input is (a .gz log, a rotated set, a
// notebook, a PDF, a folder mixing them, or plain text), so a cell's `context_meta()` says what the
// root's metadata says. Built from the same InputFormat, after the entries were sent: a PDF's pages
// without text are known only then. Declared and checked in childMessages.ts.
import type { InputFormat } from '../context/contextTypes';
import { describeInputFormat } from '../context/inputFormatText';
import { MAX_FORMAT_FRAME_BYTES, REPL_FORMAT_META } from './childMessages';
import type { ReplFormatMeta, ReplFormatName } from './childMessages';
import { frameHead } from './contextFrames';

/** A log set's name kept in the frame: paths are rarely longer, and the frame stays constant in size. */
const LOG_NAME_MAX_CHARS = 1024;

/** The input's kind in one word: a named compressed text by its compression, a folder holding converted files `mixed`. */
function formatName(format: InputFormat | undefined, shape: 'str' | 'dict'): ReplFormatName {
  if (!format) return 'text';
  if (format.pdf) return 'pdf';
  if (shape === 'str') return format.compression ?? (format.notebook ? 'notebook' : 'text');
  return format.compressedFiles || format.notebooks || format.pdfs?.files ? 'mixed' : 'text';
}

export function replFormatMeta(format: InputFormat | undefined, shape: 'str' | 'dict'): ReplFormatMeta {
  const meta: ReplFormatMeta = { format: formatName(format, shape) };
  if (!format) return meta;
  const summary = describeInputFormat(format);
  if (summary) meta.format_summary = summary.slice(0, 8192);
  if (format.compression) meta.compression = format.compression;
  if (format.compressedFiles) meta.compressed_files = format.compressedFiles;
  if (format.logSets?.length) meta.log_sets = format.logSets.slice(0, 20).map((set) => ({ log: set.log.slice(0, LOG_NAME_MAX_CHARS), parts: set.parts }));
  if (format.logSetsOmitted) meta.log_sets_omitted = format.logSetsOmitted;
  const nb = format.notebook;
  if (nb) {
    meta.notebook = { cells: nb.cells, code: nb.code, markdown: nb.markdown, raw: nb.raw, binary_outputs: nb.binaryOutputs, truncated_outputs: nb.truncatedOutputs };
    if (nb.language) meta.notebook.language = nb.language.slice(0, 40);
  }
  if (format.notebooks) meta.notebooks = format.notebooks;
  if (format.pdf) {
    meta.pdf = { pages: format.pdf.pages };
    if (format.pdf.textlessPages) meta.pdf.textless_pages = format.pdf.textlessPages.slice(0, 4096);
    if (format.pdf.textlessCount !== undefined) meta.pdf.textless_count = format.pdf.textlessCount;
  }
  if (format.pdfs) meta.pdfs = { files: format.pdfs.files, read: format.pdfs.read, pages: format.pdfs.pages, textless_pages: format.pdfs.textlessPages };
  return meta;
}

/** The 'M' frame for this input; a shape the REPL was not promised is a bug here, thrown before anything of it is sent. */
export function formatFrame(format: InputFormat | undefined, shape: 'str' | 'dict'): Buffer {
  const meta = replFormatMeta(format, shape);
  const problem = REPL_FORMAT_META(meta);
  if (problem) throw new TypeError(`the input's format for the REPL${problem}`);
  const data = Buffer.from(JSON.stringify(meta), 'utf8');
  if (data.byteLength > MAX_FORMAT_FRAME_BYTES) throw new RangeError(`the input's format for the REPL takes ${data.byteLength} bytes, more than ${MAX_FORMAT_FRAME_BYTES}`);
  return Buffer.concat([frameHead('M', data.byteLength), data]);
}
