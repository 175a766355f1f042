// Several files picked in the explorer and asked about together: each is read and checked as
// "Ask RLM about this file" reads one, and `context` becomes a dict of path -> text.
import type * as vscode from 'vscode';
import type { ContextSource, TargetDescription } from '../../core/context/contextTypes';
import { TargetRefusedError } from '../errors/extensionErrors';
import type { RlmSettings } from '../settings/rlmSettings';
import { formatBytes } from '../../shared/text/format';
import { fileContext } from './fileTarget';

interface SelectedFilesContext {
  source: ContextSource;
  target: TargetDescription;
  contextKey: string;
  label: string;
}

/** The files of an explorer multi-selection (menus pass the clicked file, then every selected one). */
export function explorerSelection(clicked: vscode.Uri, selected: unknown): vscode.Uri[] {
  if (!Array.isArray(selected)) return [clicked];
  const uris = selected.filter((u): u is vscode.Uri => typeof u === 'object' && u !== null && 'scheme' in u && 'path' in u);
  return uris.some((u) => u.toString() === clicked.toString()) ? uris : [clicked];
}

export async function selectedFilesContext(uris: readonly vscode.Uri[], settings: RlmSettings): Promise<SelectedFilesContext> {
  const files: Array<{ path: string; content: Uint8Array | string }> = [];
  let totalBytes = 0;
  for (const uri of uris) {
    const one = await fileContext(uri, settings);
    if (one.source.kind !== 'text') continue;
    totalBytes += one.target.totalBytes;
    if (totalBytes > settings.contextLimitBytes) {
      throw new TargetRefusedError(`${uris.length} files`, 'too-large', `The ${uris.length} selected files come to more than the context limit of ${formatBytes(settings.contextLimitBytes)} (rlm.contextLimitMb). Raise the limit or select fewer files.`);
    }
    files.push({ path: one.label, content: one.source.text });
  }
  const paths = files.map((f) => f.path);
  const keys = uris.map((u) => u.toString()).sort();
  return {
    source: { kind: 'files', files },
    target: { kind: 'files', paths, totalBytes, fileCount: files.length, skipped: [] },
    contextKey: `files:${keys.join('|')}`,
    label: `${files.length} files`,
  };
}
