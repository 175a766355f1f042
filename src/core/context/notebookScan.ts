// A planned notebook read again after the run, for citations and coverage: its text form streamed (the
// lines citations count), and its cell map (where each cell's source starts in that text). Read with
// the checks of binding (no link at the last step, a regular file, the notebook size limit).
import type { PlannedFile } from './contextTypes';
import { utf8Chunks } from './utf8Chunks';
import { readNotebookFile } from './notebookRead';
import type { NotebookCellSpan } from './notebookText';

/** Hands the notebook's text over in pieces; false when it cannot be read as one or is past `maxBytes`. */
export async function scanNotebook(file: PlannedFile, maxBytes: number, onChunk: (bytes: Uint8Array) => void): Promise<boolean> {
  const read = await readNotebookFile(file.abs, { noFollow: true });
  if (read.kind !== 'read' || Buffer.byteLength(read.notebook.text, 'utf8') > maxBytes) return false;
  for (const piece of utf8Chunks(read.notebook.text)) onChunk(piece);
  return true;
}

/** The cell map of a planned notebook as it reads now; undefined when it cannot be read as one. */
export async function notebookCellsOf(file: PlannedFile): Promise<NotebookCellSpan[] | undefined> {
  try {
    const read = await readNotebookFile(file.abs, { noFollow: true });
    return read.kind === 'read' ? read.notebook.cells : undefined;
  } catch {
    return undefined;
  }
}
