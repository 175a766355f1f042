// What a regular file found in a folder becomes, whoever found it (the CLI's walk in contextPlan.ts, the
// extension's workspace listing): plain text read as it is, a compressed log read decompressed, a
// notebook read as its text form, a PDF read as its pages' text; or skipped, with the reason. The
// limits hold for the text each becomes: a notebook or a PDF is larger on disk than its text.
import { hasBinaryExtension } from './binaryDetection';
import { compressionOf } from './compressedFormats';
import { plannedCompressed } from './compressedPlan';
import type { PlannedFile, TargetDescription } from './contextTypes';
import { NOTEBOOK_MAX_BYTES, isNotebookPath } from './notebookJson';
import { isPdfPath } from './pdfPages';

type Skipped = TargetDescription['skipped'][number];

/** False for a name that is never read as text (an image, an archive); true for text and the formats read as text. */
export function readableByName(shown: string): boolean {
  return compressionOf(shown) !== undefined || isPdfPath(shown) || !hasBinaryExtension(shown);
}

interface FolderLimits {
  maxFileBytes: number;
  /** With maxFileBytes, the most a PDF on disk may be (its text is held to maxFileBytes when read). */
  maxTotalBytes: number;
  /** The reading session of the folder's PDFs (pdfDocument.ts), taken when the first is planned. */
  pdfSession(): number;
}

/** The planned file for a regular file of `size` bytes whose name passed readableByName, or why it is skipped. */
export function plannedFolderFile(shown: string, abs: string, size: number, limits: FolderLimits): { kind: 'file'; file: PlannedFile } | { kind: 'skipped'; skipped: Skipped } {
  const compression = compressionOf(shown);
  // A notebook's text is smaller than its JSON (images are named, not kept): the per-file limit holds for
  // the text when it is read; on disk it may be up to the notebook limit.
  if (!compression && isNotebookPath(shown) && size <= NOTEBOOK_MAX_BYTES) return { kind: 'file', file: { path: shown, abs, bytes: Math.min(size, limits.maxFileBytes), notebook: true } };
  // A PDF's text is far smaller than the file (images, fonts): its text is held to the per-file limit
  // when it is read (pdfInFolder.ts), and nothing of it is parsed before.
  if (!compression && isPdfPath(shown)) {
    const maxStoredBytes = Math.max(limits.maxFileBytes, limits.maxTotalBytes);
    if (size > maxStoredBytes) return { kind: 'skipped', skipped: { path: shown, reason: 'too-large', bytes: size } };
    return { kind: 'file', file: { path: shown, abs, bytes: Math.min(size, limits.maxFileBytes), pdfText: { session: limits.pdfSession(), maxStoredBytes } } };
  }
  // A compressed file larger than the per-file limit on disk decodes to more than it: too large either way.
  if (size > limits.maxFileBytes) return { kind: 'skipped', skipped: { path: shown, reason: 'too-large', bytes: size } };
  return { kind: 'file', file: compression ? plannedCompressed(shown, abs, compression, size) : { path: shown, abs, bytes: size } };
}

/** True when the planned file is not read as it is on disk (decoded, converted or parsed first). */
export function isConvertedFile(file: PlannedFile): boolean {
  return file.compression !== undefined || file.notebook === true || file.pdf !== undefined || file.pdfText !== undefined;
}
