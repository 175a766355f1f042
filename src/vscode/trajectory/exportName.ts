// The file name an export proposes: the record's name with the export's extension ("2026-…-a1b2.md"),
// or "rlm-run-<id>.md" for a run not yet written. No `vscode` import.

export function exportFileName(sourcePath: string | undefined, runId: string, ext: 'md' | 'ipynb'): string {
  const name = sourcePath?.split('/').pop()?.replace(/\.rlm\.jsonl$|\.jsonl$/, '');
  return `${name || `rlm-run-${runId}`}.${ext}`;
}
