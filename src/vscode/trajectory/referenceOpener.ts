// Opens a reference of an answer (`path:line`) in the editor at that line. The path is the context's
// own (workspace-relative in VS Code, relative to the folder `rlm ask` ran in on the command line), so
// it is looked for under each workspace folder and under the folder holding the record's `.rlm/`. A file
// too large for the editor opens as a read-only slice of a few hundred lines around the line. A page of a
// PDF (`design.pdf#page=18:3`) opens in a PDF viewer at the page when one is installed, else as the
// page's extracted text, read-only, at the line; a line of a compressed log opens in its decompressed
// text, read-only (derivedTextViews.ts).
import { stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as vscode from 'vscode';
import { readLineWindow } from '../../core/citations/fileLineWindow';
import type { Reference } from '../../core/trajectory/events';
import { isNotebookPath } from '../../core/context/notebookJson';
import { cellAnchor } from '../../shared/text/referenceLabel';
import type { ReferenceLike } from '../../shared/text/referenceLabel';
import { referenceTarget } from '../../core/citations/referenceContainment';
import { compressionOf } from '../../core/context/compressedFormats';
import { parsePdfPageKey } from '../../core/context/pdfPages';
import { DECOMPRESSED_RADIUS_LINES, decompressedUri, pdfPageUri } from './derivedTextViews';
import { noticeText } from '../../shared/text/untrustedText';
import { derivedViews, unknownViewText } from './derivedViewRegistry';

/** Larger files open as a slice: the editor turns off its features near this size and refuses far larger ones. */
const LARGE_FILE_BYTES = 8 * 1024 * 1024;
const SLICE_RADIUS_LINES = 300;
export const SLICE_SCHEME = 'rlm-slice';

/** Where relative reference paths may be rooted, best first. */
function bases(recordPath: string | undefined): string[] {
  const out = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  if (recordPath) {
    // `rlm ask` writes ./.rlm/runs/<name>.rlm.jsonl: the folder above `.rlm` is where it ran.
    const runs = dirname(recordPath);
    if (runs.endsWith(join('.rlm', 'runs'))) out.push(dirname(dirname(runs)));
    out.push(dirname(recordPath));
  }
  return out;
}

/** Thrown when a reference names a file outside the folders it may open in (a hostile record). */
class ReferenceOutsideError extends Error {
  constructor(
    readonly path: string,
    readonly real: string,
  ) {
    super(`RLM: ${path} lies outside this workspace and the folder the run was asked in (it is ${real}), so it is not opened. A recorded run may name any path; open the file yourself if you expected it.`);
    this.name = 'ReferenceOutsideError';
  }
}

async function locate(path: string, recordPath: string | undefined): Promise<{ abs: string; size: number } | undefined> {
  const target = await referenceTarget(path, bases(recordPath), async (abs) => (await sized(abs)) !== undefined);
  if (target.kind === 'outside') throw new ReferenceOutsideError(path, target.real);
  return target.kind === 'inside' ? sized(target.abs) : undefined;
}

/**
 * Where a reference opens: the file with the cited lines, or for a file too large for the editor a
 * read-only slice around them (the slice's own line numbers). `abs` skips the search when the file is
 * known (a single file asked about). Undefined when the file is not found.
 */
export async function referenceLocation(reference: Reference, recordPath: string | undefined, abs?: string): Promise<vscode.Location | undefined> {
  const pdf = parsePdfPageKey(reference.path);
  const found = abs !== undefined ? await sized(abs) : await locate(pdf ? pdf.file : reference.path, recordPath);
  if (!found) return undefined;
  // A notebook's reference is the cell (its document inside the notebook), not a line of the text form.
  if (reference.notebookCell && cellAnchor(reference) && isNotebookPath(reference.path)) {
    const cell = await notebookCellLocation(found.abs, reference.notebookCell);
    if (cell) return cell;
  }
  const last = reference.endLine ?? reference.line;
  // The page's text starts after one header line.
  if (pdf) return new vscode.Location(pdfPageUri(pdf.file, found.abs, pdf.page), new vscode.Range(reference.line, 0, last, Number.MAX_SAFE_INTEGER));
  const compression = compressionOf(reference.path);
  if (compression) {
    const at = reference.line - Math.max(1, reference.line - DECOMPRESSED_RADIUS_LINES) + 1;
    return new vscode.Location(decompressedUri(reference.path, found.abs, compression, reference.line, last), new vscode.Range(at, 0, at + (last - reference.line), Number.MAX_SAFE_INTEGER));
  }
  if (found.size <= LARGE_FILE_BYTES) return new vscode.Location(vscode.Uri.file(found.abs), new vscode.Range(reference.line - 1, 0, last - 1, Number.MAX_SAFE_INTEGER));
  const query = new URLSearchParams({ id: derivedViews.issue({ kind: 'slice', abs: found.abs, shown: reference.path, line: reference.line, end: last }) }).toString();
  const uri = vscode.Uri.from({ scheme: SLICE_SCHEME, path: `/${reference.path} (around line ${reference.line})`, query });
  // The slice starts with one header line, then the file's lines from the window's first line on.
  const at = reference.line - Math.max(1, reference.line - SLICE_RADIUS_LINES) + 1;
  return new vscode.Location(uri, new vscode.Range(at, 0, at + (last - reference.line), Number.MAX_SAFE_INTEGER));
}

/**
 * Where an answer's mention of a notebook cell or a PDF page opens, looked for in the workspace only (the
 * mention is the model's text): undefined for a file outside it or not found, and for a notebook without
 * that cell (never a line of its JSON instead). `abs`: the file, when the run asked about it alone.
 */
export async function mentionLocation(reference: ReferenceLike & { line: number }, abs?: string): Promise<vscode.Location | undefined> {
  const full: Reference = { ...reference, text: '' };
  try {
    if (full.notebookCell && cellAnchor(full) && isNotebookPath(full.path)) {
      const found = abs !== undefined ? await sized(abs) : await locate(full.path, undefined);
      return found ? await notebookCellLocation(found.abs, full.notebookCell) : undefined;
    }
    return await referenceLocation(full, undefined, abs);
  } catch (error) {
    if (error instanceof ReferenceOutsideError) return undefined;
    throw error;
  }
}

async function sized(abs: string): Promise<{ abs: string; size: number } | undefined> {
  try {
    const info = await stat(abs);
    return info.isFile() ? { abs, size: info.size } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a notebook's cell reference points: the cell's own document (a `vscode-notebook-cell:` URI, which
 * VS Code opens in the notebook editor at that cell), at the cited lines of its source or its first line.
 * Undefined when the notebook has no such cell now, or cannot be opened as a notebook.
 */
async function notebookCellLocation(abs: string, cell: NonNullable<Reference['notebookCell']>): Promise<vscode.Location | undefined> {
  let document: vscode.NotebookDocument;
  try {
    document = await vscode.workspace.openNotebookDocument(vscode.Uri.file(abs));
  } catch {
    return undefined;
  }
  const index = cell.cell - 1;
  if (index < 0 || index >= document.cellCount) return undefined;
  const source = document.cellAt(index).document;
  const first = Math.min(Math.max(1, cell.line ?? 1), Math.max(1, source.lineCount));
  const last = Math.min(Math.max(first, cell.endLine ?? first), Math.max(1, source.lineCount));
  return new vscode.Location(source.uri, new vscode.Range(first - 1, 0, last - 1, Number.MAX_SAFE_INTEGER));
}

/**
 * A notebook's reference opens in the notebook editor: the cell revealed and selected, and for a line
 * of its source, that line selected in the cell's editor. False when the notebook has no such cell now.
 */
async function openNotebookCell(abs: string, cell: NonNullable<Reference['notebookCell']>): Promise<boolean> {
  const document = await vscode.workspace.openNotebookDocument(vscode.Uri.file(abs));
  const index = cell.cell - 1;
  if (index < 0 || index >= document.cellCount) return false;
  const range = new vscode.NotebookRange(index, index + 1);
  const editor = await vscode.window.showNotebookDocument(document, { selections: [range], preview: true, viewColumn: shownNotebookColumn(document) });
  editor.revealRange(range, vscode.NotebookEditorRevealType.InCenterIfOutsideViewport);
  if (cell.line !== undefined) {
    const source = document.cellAt(index).document;
    const last = Math.min(cell.endLine ?? cell.line, source.lineCount);
    const selection = new vscode.Selection(cell.line - 1, 0, last - 1, source.lineAt(Math.max(0, last - 1)).text.length);
    // Showing a cell's document focuses that cell's editor inside the notebook.
    await vscode.window.showTextDocument(source, { selection, viewColumn: editor.viewColumn, preview: true });
  }
  return true;
}

/** The view type of an installed custom editor for PDFs (a PDF viewer extension), if any. */
function pdfViewerType(): string | undefined {
  for (const extension of vscode.extensions.all) {
    const editors: unknown = (extension.packageJSON as { contributes?: { customEditors?: unknown } } | undefined)?.contributes?.customEditors;
    if (!Array.isArray(editors)) continue;
    for (const editor of editors as Array<{ viewType?: unknown; selector?: unknown }>) {
      const selectors = Array.isArray(editor.selector) ? (editor.selector as Array<{ filenamePattern?: unknown }>) : [];
      if (typeof editor.viewType === 'string' && selectors.some((s) => typeof s.filenamePattern === 'string' && /\.pdf$/i.test(s.filenamePattern))) return editor.viewType;
    }
  }
  return undefined;
}

export async function openReference(reference: Reference, recordPath: string | undefined): Promise<void> {
  try {
    await openReferenceInside(reference, recordPath);
  } catch (error) {
    if (!(error instanceof ReferenceOutsideError)) throw error;
    void vscode.window.showWarningMessage(noticeText(error.message));
  }
}

async function openReferenceInside(reference: Reference, recordPath: string | undefined): Promise<void> {
  if (reference.notebookCell && cellAnchor(reference) && isNotebookPath(reference.path)) {
    const found = await locate(reference.path, recordPath);
    if (!found) {
      void vscode.window.showWarningMessage(noticeText(`RLM: ${reference.path} was not found in this workspace, so cell ${reference.notebookCell.cell} cannot be opened.`));
      return;
    }
    if (await openNotebookCell(found.abs, reference.notebookCell)) return;
    void vscode.window.showWarningMessage(noticeText(`RLM: ${reference.path} has no cell ${reference.notebookCell.cell} now (it changed since the run).`));
    return;
  }
  const pdf = parsePdfPageKey(reference.path);
  const viewer = pdf ? pdfViewerType() : undefined;
  if (pdf && viewer) {
    const found = await locate(pdf.file, recordPath);
    if (found) {
      // `#page=N` is the fragment PDF viewers open at (the line within the page has no meaning there).
      await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(found.abs).with({ fragment: `page=${pdf.page}` }), viewer);
      return;
    }
  }
  const location = await referenceLocation(reference, recordPath);
  if (!location) {
    void vscode.window.showWarningMessage(noticeText(`RLM: ${pdf ? pdf.file : reference.path} was not found in this workspace, so ${pdf ? `page ${pdf.page}` : `line ${reference.line}`} cannot be opened.`));
    return;
  }
  const document = await vscode.workspace.openTextDocument(location.uri);
  await vscode.window.showTextDocument(document, { selection: location.range, preview: true, viewColumn: shownTextColumn(document) });
}

/*
 * A reference is clicked in RLM's view, which opens beside the file asked about. Opening into the
 * active group would put a second tab of that file under the view and hide the answer; the file's
 * own editor, already in sight in the next group, is where the user looks. Undefined (the active
 * group) when no visible editor shows it.
 */
function shownTextColumn(document: vscode.TextDocument): vscode.ViewColumn | undefined {
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === document.uri.toString())?.viewColumn;
}

function shownNotebookColumn(document: vscode.NotebookDocument): vscode.ViewColumn | undefined {
  return vscode.window.visibleNotebookEditors.find((e) => e.notebook.uri.toString() === document.uri.toString())?.viewColumn;
}

/** Serves the read-only slices (a content provider's documents cannot be edited or saved over the file). */
export const sliceProvider: vscode.TextDocumentContentProvider = {
  async provideTextDocumentContent(uri) {
    const view = derivedViews.lookup(new URLSearchParams(uri.query).get('id'), 'slice');
    if (view?.kind !== 'slice') return unknownViewText('slice');
    // Streamed: only the window is kept, however large the file (the whole file was read before).
    const window = await readLineWindow(view.abs, view.line, view.end, SLICE_RADIUS_LINES);
    if (window.text === '') return `[${view.shown} has fewer than ${window.firstLine} lines now: it changed since the run, so line ${view.line} is not there.]\n`;
    return `[lines ${window.firstLine}-${window.lastLine} of ${view.abs}: a read-only slice, the file is too large to open whole]\n${window.text}`;
  },
};
