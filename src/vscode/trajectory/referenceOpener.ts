// Opens a reference of an answer (`path:line`) in the editor at that line. The path is the context's
// own (workspace-relative in VS Code, relative to the folder `rlm ask` ran in on the command line), so
// it is looked for under each workspace folder and under the folder holding the record's `.rlm/`. A file
// too large for the editor opens as a read-only slice of a few hundred lines around the line.
import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { lineWindow } from '../../core/citations/lineWindow';
import type { Reference } from '../../core/trajectory/events';

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

async function locate(path: string, recordPath: string | undefined): Promise<{ abs: string; size: number } | undefined> {
  const candidates = isAbsolute(path) ? [path] : bases(recordPath).map((base) => resolve(base, path));
  for (const abs of candidates) {
    try {
      const info = await stat(abs);
      if (info.isFile()) return { abs, size: info.size };
    } catch {
      // Not under this base: try the next.
    }
  }
  return undefined;
}

export async function openReference(reference: Reference, recordPath: string | undefined): Promise<void> {
  const found = await locate(reference.path, recordPath);
  if (!found) {
    void vscode.window.showWarningMessage(`RLM: ${reference.path} was not found in this workspace, so line ${reference.line} cannot be opened.`);
    return;
  }
  const last = reference.endLine ?? reference.line;
  if (found.size <= LARGE_FILE_BYTES) {
    const selection = new vscode.Range(reference.line - 1, 0, last - 1, Number.MAX_SAFE_INTEGER);
    await vscode.window.showTextDocument(vscode.Uri.file(found.abs), { selection, preview: true });
    return;
  }
  const query = new URLSearchParams({ abs: found.abs, line: String(reference.line), end: String(last) }).toString();
  const uri = vscode.Uri.from({ scheme: SLICE_SCHEME, path: `/${reference.path} (around line ${reference.line})`, query });
  const document = await vscode.workspace.openTextDocument(uri);
  const firstLine = Number(/^\D*(\d+)/.exec(document.lineAt(0).text)?.[1] ?? '1');
  // The slice starts with one header line, then the file's lines from firstLine on.
  const at = reference.line - firstLine + 1;
  const selection = new vscode.Range(at, 0, at + (last - reference.line), Number.MAX_SAFE_INTEGER);
  await vscode.window.showTextDocument(document, { selection, preview: true });
}

/** Serves the read-only slices (a content provider's documents cannot be edited or saved over the file). */
export const sliceProvider: vscode.TextDocumentContentProvider = {
  async provideTextDocumentContent(uri) {
    const params = new URLSearchParams(uri.query);
    const abs = params.get('abs') ?? '';
    const line = Number(params.get('line'));
    const end = Number(params.get('end') ?? line);
    const content = await readFile(abs);
    const window = lineWindow(content, line, end, SLICE_RADIUS_LINES);
    return `[lines ${window.firstLine}-${window.lastLine} of ${abs}: a read-only slice, the file is too large to open whole]\n${window.text}`;
  },
};
