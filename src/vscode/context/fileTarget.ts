// The context of "Ask RLM about this file": the editor's text (unsaved edits included) or, from the
// explorer, the file on disk; optionally only the selection. Binary and over-size files are refused
// with a sentence saying why.
import * as vscode from 'vscode';
import type { ContextSource, TargetDescription } from '../../core/context/contextTypes';
import { TargetRefusedError } from '../errors/extensionErrors';
import type { RlmSettings } from '../settings/rlmSettings';
import { hasBinaryExtension, hasNulByte } from '../../core/context/binaryDetection';
import { formatBytes } from '../../shared/text/format';
import { readLocalFile } from '../../core/context/localFileRead';
import { compressionOf } from '../../core/context/compressedFormats';
import { ContextReadError, DecompressionBombError } from '../../core/context/contextErrors';
import { planPaths } from '../../core/context/contextPlan';
import { isPdfPath } from '../../core/context/pdfPages';
import { dirname } from 'node:path';
import { isNotebookPath } from '../../core/context/notebookJson';
import { notebookFileContext } from './notebookTarget';

interface FileContext {
  source: ContextSource;
  target: TargetDescription;
  /** Identifies the target for the one-run-per-context rule. */
  contextKey: string;
  label: string;
}

function checkSize(label: string, bytes: number, settings: RlmSettings): void {
  if (bytes > settings.contextLimitBytes) {
    throw new TargetRefusedError(
      label,
      'too-large',
      `${label} is ${formatBytes(bytes)}, over the context limit of ${formatBytes(settings.contextLimitBytes)} (rlm.contextLimitMb). Raise the limit or ask about a smaller file.`,
    );
  }
}

function specialRefusal(label: string, kind: string): TargetRefusedError {
  return new TargetRefusedError(label, 'special', `${label} is a ${kind}, not a regular file; RLM reads files and folders only. Save what you need to a file and ask about that.`);
}

/** On this machine the read stops at the context limit, whatever the stat said, and a swapped-in device is refused. */
async function readLocalBounded(path: string, label: string, settings: RlmSettings): Promise<Uint8Array> {
  const read = await readLocalFile(path, { maxBytes: settings.contextLimitBytes });
  if (read.kind === 'read') return read.bytes;
  if (read.kind === 'special') throw specialRefusal(label, read.special);
  if (read.kind === 'too-large') checkSize(label, Math.max(read.bytesSeen, read.statBytes), settings);
  throw new TargetRefusedError(label, 'unreadable', `${label} could not be read.`);
}

/**
 * A compressed log on this machine (.gz, .bz2, .xz, .zst) or a PDF: planned as the CLI plans it, so it
 * is read decompressed (or page by page, parsed in a worker thread) while bound, the limit holds for the
 * text, and a bomb or a broken PDF is refused before anything is sent (compressedPlan.ts, pdfPlan.ts).
 */
async function compressedFileContext(uri: vscode.Uri, label: string, settings: RlmSettings): Promise<FileContext> {
  const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? dirname(uri.fsPath);
  let plan;
  try {
    plan = await planPaths([uri.fsPath], { cwd: folder, maxTotalBytes: settings.contextLimitBytes, maxListedBytes: 0 });
  } catch (error) {
    if (error instanceof ContextReadError) throw new TargetRefusedError(label, error instanceof DecompressionBombError ? 'too-large' : 'unreadable', error.message);
    throw error;
  }
  return { source: { kind: 'plan', plan }, target: plan.target, contextKey: `file:${uri.toString()}`, label: plan.target.paths[0] ?? label };
}

export async function fileContext(uri: vscode.Uri, settings: RlmSettings, selectionOnly?: vscode.Selection): Promise<FileContext> {
  const label = vscode.workspace.asRelativePath(uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1);
  if (uri.scheme === 'file' && !selectionOnly && (compressionOf(uri.path) || isPdfPath(uri.path))) return compressedFileContext(uri, label, settings);
  // A notebook (open in the notebook editor, or a .ipynb) is read as its cells' text, never its JSON.
  if (isNotebookPath(uri.path) || vscode.workspace.notebookDocuments.some((d) => d.uri.toString() === uri.toString())) return notebookFileContext(uri, label, settings);
  if (hasBinaryExtension(uri.path)) {
    throw new TargetRefusedError(label, 'binary', `${label} is a binary file; RLM reads text. Ask about a text file, or a folder (binaries are skipped there).`);
  }
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  let text: string | Uint8Array;
  if (open) {
    text = selectionOnly ? open.getText(selectionOnly) : open.getText();
  } else {
    let bytes: Uint8Array;
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (stat.type & vscode.FileType.Directory) throw new TargetRefusedError(label, 'unreadable', `${label} is a folder: use "RLM: Ask about folder...".`);
      if (!(stat.type & vscode.FileType.File)) throw specialRefusal(label, 'special file');
      checkSize(label, stat.size, settings);
      bytes = uri.scheme === 'file' ? await readLocalBounded(uri.fsPath, label, settings) : await vscode.workspace.fs.readFile(uri);
    } catch (error) {
      if (error instanceof TargetRefusedError) throw error;
      throw new TargetRefusedError(label, 'unreadable', `${label} could not be read: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (hasNulByte(bytes)) throw new TargetRefusedError(label, 'binary', `${label} contains NUL bytes, so it is binary; RLM reads text.`);
    text = bytes;
  }
  const size = typeof text === 'string' ? Buffer.byteLength(text, 'utf8') : text.byteLength;
  checkSize(label, size, settings);
  if (size === 0) throw new TargetRefusedError(label, 'empty', `${selectionOnly ? 'The selection' : label} is empty: there is nothing to ask about.`);
  const shown = selectionOnly ? `${label}:${selectionOnly.start.line + 1}-${selectionOnly.end.line + 1}` : label;
  return {
    source: { kind: 'text', text, label: shown },
    target: { kind: selectionOnly ? 'selection' : 'file', paths: [shown], totalBytes: size, fileCount: 1, skipped: [] },
    contextKey: `file:${uri.toString()}`,
    label: shown,
  };
}
