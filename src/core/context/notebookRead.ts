// Reads a `.ipynb` on this machine as its text form (notebookText.ts), with the checks every other read
// makes (localFileRead.ts): opened non-blocking and, in folders, without following a link at the last
// step; the open handle must be a regular file (inside `within`, checked on the descriptor); reading
// stops one byte past the notebook size limit, whatever the stat said. A notebook is parsed whole, so
// its text is made in memory: bounded by that limit (notebookJson.ts), never by the file.
import type { FileHandle } from 'node:fs/promises';
import { BINARY_SNIFF_BYTES } from './binaryDetection';
import { ContextReadError, ContextTooLargeError } from './contextErrors';
import { swappedRefusal, swappedSkip } from './swappedFile';
import type { ContextPlan, PlannedFile, TargetDescription } from './contextTypes';
import { openRegularFile } from './localFileRead';
import type { SpecialKind } from './localFileRead';
import { NOTEBOOK_MAX_BYTES, NotebookShapeError, parseNotebook } from './notebookJson';
import { notebookText } from './notebookText';
import type { NotebookText } from './notebookText';

type Skipped = TargetDescription['skipped'][number];

/** A file named `.ipynb` that is not a notebook this can read: one sentence, the reason in `detail`. */
export class NotebookReadError extends ContextReadError {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path} is not a Jupyter notebook RLM can read: ${detail}. Nothing was sent to a model.`);
  }
}

type NotebookRead =
  | { kind: 'read'; notebook: NotebookText; storedBytes: number }
  | { kind: 'not-notebook'; detail: string }
  | { kind: 'special'; special: SpecialKind }
  | { kind: 'link' }
  | { kind: 'outside'; real: string | undefined };

interface NotebookReadOptions {
  noFollow?: boolean;
  within?: readonly string[];
}

/** The bytes of an open regular file, up to the notebook limit and one byte more. */
async function readBounded(handle: FileHandle, statBytes: number): Promise<Uint8Array> {
  const cap = NOTEBOOK_MAX_BYTES + 1;
  let buffer = Buffer.allocUnsafe(Math.min(cap, Math.max(statBytes + 1, 64 * 1024)));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (buffer.length >= cap) return buffer;
      const grown = Buffer.allocUnsafe(Math.min(cap, buffer.length * 2));
      buffer.copy(grown, 0, 0, length);
      buffer = grown;
    }
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
    if (bytesRead === 0) return buffer.subarray(0, length);
    length += bytesRead;
  }
}

/** Reads and converts the notebook at `path`. Errors of the file system (missing, denied) are thrown. */
export async function readNotebookFile(path: string, options: NotebookReadOptions = {}): Promise<NotebookRead> {
  const opened = await openRegularFile(path, options);
  if (opened.kind !== 'open') return opened;
  const { handle, stat } = opened;
  try {
    const bytes = await readBounded(handle, stat.size);
    try {
      const { cells, language } = parseNotebook(bytes);
      return { kind: 'read', notebook: notebookText(cells, language), storedBytes: bytes.byteLength };
    } catch (error) {
      if (error instanceof NotebookShapeError) return { kind: 'not-notebook', detail: error.detail };
      throw error;
    }
  } finally {
    await handle.close();
  }
}

/** The error a named notebook's read ends with when it is not read. */
function refusal(shown: string, read: Exclude<NotebookRead, { kind: 'read' }>): Error {
  return read.kind === 'not-notebook' ? new NotebookReadError(shown, read.detail) : swappedRefusal(shown, read);
}

/** A named notebook's text, or the error saying why it cannot be read (a link the user named is followed). */
export async function notebookOfNamedFile(shown: string, abs: string): Promise<NotebookText> {
  const read = await readNotebookFile(abs);
  if (read.kind !== 'read') throw refusal(shown, read);
  return read.notebook;
}

/** The plan of one notebook named alone: a `str` of its text form, its size exact (the notebook was read whole). */
export async function planNotebookFile(shown: string, abs: string, maxTotalBytes: number): Promise<ContextPlan> {
  const notebook = await notebookOfNamedFile(shown, abs);
  const text = Buffer.from(notebook.text, 'utf8');
  if (text.byteLength > maxTotalBytes) throw new ContextTooLargeError(text.byteLength, maxTotalBytes, [{ path: shown, bytes: text.byteLength }]);
  if (text.byteLength === 0) throw new NotebookReadError(shown, 'it has no cells');
  return {
    shape: 'text',
    files: [{ path: shown, abs, bytes: text.byteLength, notebook: true }],
    head: text.subarray(0, BINARY_SNIFF_BYTES),
    totalBytes: text.byteLength,
    maxFileBytes: maxTotalBytes,
    maxTotalBytes,
    target: { kind: 'file', paths: [shown], totalBytes: text.byteLength, fileCount: 1, skipped: [] },
    format: { notebook: notebook.summary },
  };
}

/** True when the planned file is read as a notebook's text form. */
export function isNotebookFile(file: PlannedFile): boolean {
  return file.notebook === true;
}

/**
 * Reads a planned notebook's text into `into` (as readPlannedInto reads a plain file): `full` when it
 * does not fit; not a notebook, or a file swapped since the walk, is skipped with its reason. `named`:
 * the user named this file (a link they named is followed); a walk's files are read without following.
 */
export async function readNotebookInto(file: PlannedFile, into: Uint8Array, within?: readonly string[], named = false): Promise<{ kind: 'read'; length: number } | { kind: 'full' } | { kind: 'skipped'; skipped: Skipped }> {
  let read: NotebookRead;
  try {
    read = await readNotebookFile(file.abs, { noFollow: !named, ...(within ? { within } : {}) });
  } catch {
    return { kind: 'skipped', skipped: { path: file.path, reason: 'unreadable' } };
  }
  switch (read.kind) {
    case 'read': {
      const { read: chars, written } = new TextEncoder().encodeInto(read.notebook.text, into.subarray(0, into.length - 1));
      if (chars < read.notebook.text.length) return { kind: 'full' };
      return { kind: 'read', length: written };
    }
    case 'not-notebook':
      return { kind: 'skipped', skipped: { path: file.path, reason: 'unreadable', detail: `not a Jupyter notebook: ${read.detail}` } };
    default:
      return swappedSkip(file.path, read);
  }
}
