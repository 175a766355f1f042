// The input's original format in words, for `rlm show`, the trajectory view's header and exports: a
// run over app.log.gz or a rotated set says so wherever the run is looked at. The metadata may come
// from a recorded file (hostile): only its expected fields of the expected types are used.
import type { InputFormat } from './contextTypes';
import { describeNotebookFormat } from './notebookPrompt';
import { formatCount } from '../../shared/text/format';

const COMPRESSIONS = new Set(['gzip', 'bzip2', 'xz', 'zstd']);

/**
 * E.g. "read decompressed from gzip", "2 files read decompressed; rotated logs: logs/app.log (4 parts)",
 * "a PDF of 40 pages, read page by page; pages without text: 3, 7–9"; undefined for plain text.
 */
export function describeInputFormat(format: InputFormat | undefined): string | undefined {
  if (!format || typeof format !== 'object') return undefined;
  const parts: string[] = [];
  if (typeof format.compression === 'string' && COMPRESSIONS.has(format.compression)) parts.push(`read decompressed from ${format.compression}`);
  if (typeof format.compressedFiles === 'number' && format.compressedFiles > 0) parts.push(`${format.compressedFiles} file${format.compressedFiles === 1 ? '' : 's'} read decompressed`);
  const sets = Array.isArray(format.logSets) ? format.logSets.filter((s) => s && typeof s.log === 'string' && typeof s.parts === 'number').slice(0, 3) : [];
  if (sets.length > 0) {
    const more = (format.logSets?.length ?? 0) - sets.length + (typeof format.logSetsOmitted === 'number' ? format.logSetsOmitted : 0);
    parts.push(`rotated logs read oldest first: ${sets.map((s) => `${s.log.slice(0, 200)} (${s.parts} parts)`).join(', ')}${more > 0 ? ` and ${more} more` : ''}`);
  }
  parts.push(...describeNotebookFormat(format));
  const pdf = format.pdf;
  if (pdf && typeof pdf === 'object' && typeof pdf.pages === 'number' && Number.isFinite(pdf.pages)) {
    parts.push(`a PDF of ${pdf.pages} page${pdf.pages === 1 ? '' : 's'}, read page by page`);
    if (typeof pdf.textlessPages === 'string' && pdf.textlessPages) parts.push(`pages without text: ${pdf.textlessPages.slice(0, 200)}`);
  }
  parts.push(...describeFolderPdfs(format.pdfs));
  return parts.length ? parts.join('; ') : undefined;
}

/** "3 PDFs read page by page (120 pages, 4 without text)", or "… (pages not yet read)" for a lazy folder. */
function describeFolderPdfs(pdfs: unknown): string[] {
  if (!pdfs || typeof pdfs !== 'object') return [];
  const { files, read, pages, textlessPages } = pdfs as Record<string, unknown>;
  const count = (v: unknown): number | undefined => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 ? v : undefined);
  const n = count(files);
  if (!n) return [];
  const readCount = count(read) ?? 0;
  const pageCount = count(pages) ?? 0;
  const textless = count(textlessPages) ?? 0;
  const detail = readCount === 0 ? 'pages not yet read' : `${readCount < n ? `${formatCount(readCount)} read: ` : ''}${formatCount(pageCount)} page${pageCount === 1 ? '' : 's'}${textless ? `, ${formatCount(textless)} without text` : ''}`;
  return [`${formatCount(n)} PDF${n === 1 ? '' : 's'} read page by page (${detail})`];
}
