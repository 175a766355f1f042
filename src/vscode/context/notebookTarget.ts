// "Ask RLM about this file" on a Jupyter notebook: open in the notebook editor, its cells are read as
// they are now (unsaved edits and outputs included), not the file on disk; closed, the file is read
// and converted as the CLI does. Either way the text is the same text form (core/context/notebookText.ts)
// and the source carries the cell map, so citations say `analysis.ipynb#cell=3:2`.
import * as vscode from 'vscode';
import type { ContextSource, TargetDescription } from '../../core/context/contextTypes';
import { NotebookReadError, notebookOfNamedFile } from '../../core/context/notebookRead';
import { notebookText } from '../../core/context/notebookText';
import type { NotebookCell, NotebookOutput, NotebookText } from '../../core/context/notebookText';
import { ContextReadError } from '../../core/context/contextErrors';
import { formatBytes } from '../../shared/text/format';
import { TargetRefusedError } from '../errors/extensionErrors';
import type { RlmSettings } from '../settings/rlmSettings';

const STDOUT = 'application/vnd.code.notebook.stdout';
const STDERR = 'application/vnd.code.notebook.stderr';
const ERROR = 'application/vnd.code.notebook.error';
const decoder = new TextDecoder();

function isTextMime(mime: string): boolean {
  return mime.startsWith('text/') || mime === 'application/json';
}

/** One output as the editor holds it, in the neutral model. */
function outputOf(output: vscode.NotebookCellOutput): NotebookOutput {
  const stream = output.items.filter((item) => item.mime === STDOUT || item.mime === STDERR);
  if (stream.length) return { kind: 'stream', name: stream[0]!.mime === STDERR ? 'stderr' : 'stdout', text: stream.map((item) => decoder.decode(item.data)).join('') };
  const error = output.items.find((item) => item.mime === ERROR);
  if (error) {
    let parsed: { name?: unknown; message?: unknown; stack?: unknown } = {};
    try {
      parsed = JSON.parse(decoder.decode(error.data)) as typeof parsed;
    } catch {
      // An error output that is not JSON is shown by its name only.
    }
    const ename = typeof parsed.name === 'string' ? parsed.name : 'Error';
    const evalue = typeof parsed.message === 'string' ? parsed.message : '';
    return { kind: 'error', ename, evalue, traceback: typeof parsed.stack === 'string' && parsed.stack ? parsed.stack : `${ename}: ${evalue}` };
  }
  // The ipynb serializer keeps nbformat's output type in the metadata.
  const result = (output.metadata as { outputType?: unknown } | undefined)?.outputType === 'execute_result';
  return { kind: 'data', result, items: output.items.map((item) => ({ mime: item.mime, bytes: item.data.byteLength, ...(isTextMime(item.mime) ? { text: decoder.decode(item.data) } : {}) })) };
}

/** The cells of an open notebook, as they are in the editor now. */
function cellsOfDocument(document: vscode.NotebookDocument): NotebookCell[] {
  return document.getCells().map((cell): NotebookCell => {
    const raw = cell.document.languageId === 'raw';
    const kind = cell.kind === vscode.NotebookCellKind.Markup ? 'markdown' : raw ? 'raw' : 'code';
    const order = cell.executionSummary?.executionOrder;
    return { kind, source: cell.document.getText(), outputs: kind === 'code' ? cell.outputs.map(outputOf) : [], ...(kind === 'code' && order !== undefined ? { executionCount: order } : {}) };
  });
}

function languageOf(document: vscode.NotebookDocument): string | undefined {
  const code = document.getCells().find((cell) => cell.kind === vscode.NotebookCellKind.Code && cell.document.languageId !== 'raw');
  return code?.document.languageId;
}

/** The notebook at `uri` as text: the open editor's cells when it is open, else the file converted. */
export async function notebookFileContext(uri: vscode.Uri, label: string, settings: RlmSettings): Promise<{ source: ContextSource; target: TargetDescription; contextKey: string; label: string }> {
  const open = vscode.workspace.notebookDocuments.find((d) => d.uri.toString() === uri.toString());
  let notebook: NotebookText;
  if (open) notebook = notebookText(cellsOfDocument(open), languageOf(open));
  else if (uri.scheme === 'file') {
    try {
      notebook = await notebookOfNamedFile(label, uri.fsPath);
    } catch (error) {
      if (error instanceof NotebookReadError) throw new TargetRefusedError(label, 'unreadable', error.message);
      if (error instanceof ContextReadError) throw new TargetRefusedError(label, 'special', error.message);
      throw new TargetRefusedError(label, 'unreadable', `${label} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else {
    // A notebook on a remote or virtual file system that is not open: opened (not shown) to read its cells.
    const document = await vscode.workspace.openNotebookDocument(uri);
    notebook = notebookText(cellsOfDocument(document), languageOf(document));
  }
  const text = notebook.text;
  const size = Buffer.byteLength(text, 'utf8');
  if (size === 0) throw new TargetRefusedError(label, 'empty', `${label} has no cells: there is nothing to ask about.`);
  if (size > settings.contextLimitBytes) {
    throw new TargetRefusedError(label, 'too-large', `${label} is ${formatBytes(size)} as text, over the context limit of ${formatBytes(settings.contextLimitBytes)} (rlm.contextLimitMb). Raise the limit or clear some outputs.`);
  }
  return {
    source: { kind: 'text', text, label, notebook: { cells: notebook.cells, summary: notebook.summary } },
    target: { kind: 'file', paths: [label], totalBytes: size, fileCount: 1, skipped: [] },
    contextKey: `file:${uri.toString()}`,
    label,
  };
}
