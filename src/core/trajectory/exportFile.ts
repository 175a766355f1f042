// Writes an export to a file in pieces, as the exporter produces them, so exporting a large run takes
// the memory of its tree and one piece, not of the whole document. The file appears only when it is
// complete (written beside it, then renamed), so a failure never leaves half a notebook.
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { writeNotebook } from './exportIpynb';
import { writeMarkdown } from './exportMarkdown';
import type { RunNode } from './treeTypes';

export type ExportFormat = 'ipynb' | 'md';

/** One run, or the top-level runs of a conversation in order. */
export function exportToFile(run: RunNode | RunNode[], format: ExportFormat, path: string, options: { toolVersion?: string } = {}): void {
  const partial = `${path}.${process.pid}.partial`;
  const fd = openSync(partial, 'w');
  try {
    const write = (text: string): void => {
      const bytes = Buffer.from(text, 'utf8');
      let done = 0;
      while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
    };
    if (format === 'ipynb') writeNotebook(run, write, options);
    else writeMarkdown(run, write);
  } catch (error) {
    closeSync(fd);
    rmSync(partial, { force: true });
    throw error;
  }
  closeSync(fd);
  renameSync(partial, path);
}
