// Streams the files of a plan (files on disk, bound while read) for citations and coverage, with the
// same checks as binding: no link at the last step, regular files only, a size limit. A small file is
// read in one synchronous call into a reused buffer, as the plan reader does (a few system calls, not
// four trips through the thread pool: a 20,000-file folder is scanned in a fraction of a second), in
// time slices so the event loop still turns; a big one is streamed through one 1 MiB buffer.
import { readCompressed } from '../context/compressedRead';
import { scanNotebook } from '../context/notebookScan';
import { isPdfPage, pdfPageString } from '../context/pdfPlan';
import { isPdfDocument, rereadPdfTextForm } from '../context/pdfInFolder';
import { utf8Chunks } from '../context/utf8Chunks';
import type { PlannedFile } from '../context/contextTypes';
import { streamLocalFile } from '../context/localFileRead';
import { readLocalFileInto } from '../context/localFileReadSync';
import { TimeSlicer } from '../context/timeSlicer';

const SMALL_FILE_BYTES = 1024 * 1024;

export type PlannedFileScan = (file: PlannedFile, maxBytes: number, onChunk: (bytes: Uint8Array) => void) => Promise<boolean>;

/** One scanner per lookup: its buffer is reused file after file (`onChunk` must copy what it keeps). */
export function plannedFileScanner(): PlannedFileScan {
  let scratch: Uint8Array | undefined;
  const slicer = new TimeSlicer();
  return async (file, maxBytes, onChunk) => {
    try {
      // A compressed file is cited in the lines of its text, so it is scanned decompressed.
      if (file.notebook) return await scanNotebook(file, maxBytes, onChunk);
      // A PDF page is cited in the lines of its extracted text.
      if (isPdfPage(file)) {
        onChunk(new TextEncoder().encode(await pdfPageString(file)));
        return true;
      }
      // A folder's PDF is cited in the lines of its text form (pages under their markers).
      if (isPdfDocument(file)) {
        const form = await rereadPdfTextForm(file, maxBytes);
        if (!form) return false;
        for (const piece of utf8Chunks(form.text)) onChunk(piece);
        return true;
      }
      if (file.compression) return (await readCompressed(file.abs, file.compression, { maxBytes, noFollow: true }, onChunk)).kind === 'done';
      if (file.bytes <= SMALL_FILE_BYTES) {
        await slicer.yieldIfDue();
        scratch ??= new Uint8Array(SMALL_FILE_BYTES + 1);
        // Nothing awaits between the read and onChunk, so scans running side by side never share the buffer mid-use.
        const read = readLocalFileInto(file.abs, scratch, { noFollow: true, plannedBytes: file.bytes });
        if (read.kind === 'read') {
          onChunk(scratch.subarray(0, read.length));
          return true;
        }
        // A file that grew past the buffer since the walk is streamed like a big one, under the same limit.
        if (read.kind !== 'too-large') return false;
      }
      return (await streamLocalFile(file.abs, { maxBytes, noFollow: true }, onChunk)).kind === 'streamed';
    } catch {
      return false;
    }
  };
}
