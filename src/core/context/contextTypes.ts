// The shapes that describe what is bound as `context` in the REPL. The text itself never reaches the
// root model; only ContextMetadata does.
import type { Compression } from './compressedFormats';
import type { ContextMetadata, InputFormat, TargetDescription } from './contextSchemas';
import type { NotebookCellSpan, NotebookSummary } from './notebookText';

// Declared once, as schemas (contextSchemas.ts), and inferred from them.
export type { ContextMetadata, InputFormat, SkipReason, TargetDescription } from './contextSchemas';

/** One file of a multi-file context. `path` is workspace-relative, POSIX separators. */
export interface ContextFile {
  path: string;
  /** Raw bytes (decoded as UTF-8 in Python, invalid sequences replaced) or already-decoded text. */
  content: Uint8Array | string;
}

/**
 * What to bind. A single text becomes a Python `str`; a file list becomes a `dict[str, str]`
 * from path to text, in the order given (callers sort it for stability).
 */
export type ContextSource =
  | {
      kind: 'text';
      text: Uint8Array | string;
      /** Where it came from, for display only. */ label?: string;
      /** Set when the text is a notebook's text form (an open notebook's cells): its cells, for the metadata and citations. */
      notebook?: { cells: NotebookCellSpan[]; summary: NotebookSummary };
    }
  /** `format`: set when some files were read as the text of another format (a folder's .gz, notebooks, PDFs). */
  | { kind: 'files'; files: ContextFile[]; format?: InputFormat }
  /** Files on this machine, read while they are bound: the host never holds them whole (contextPlan.ts). */
  | { kind: 'plan'; plan: ContextPlan };

/**
 * A folder still being walked when the run starts (a large one: the walk of 100,000 files takes
 * seconds on a busy machine). The root's first request goes out with what the walk found so far
 * once `previewDue` resolves; `context` is bound from `ready`. The walk's error, if any, ends the run.
 */
export interface PendingContext {
  kind: 'pending';
  ready: Promise<{ context: ContextSource; target: TargetDescription }>;
  /** Resolves when the first request should stop waiting for `ready`. */
  previewDue: Promise<void>;
  /** The metadata of what was found so far (`listing: 'partial'`); undefined while nothing was found. */
  soFar(): ContextMetadata | undefined;
}

/** How far a walk has got: updated as it runs, read for a first request sent before it ends. */
export interface PlanProgress {
  fileCount: number;
  totalBytes: number;
  /** The first files found, in walk order (at most 100). */
  firstFiles: PlannedFile[];
  /**
   * Set by the caller once a request goes out while the walk runs on the same thread: the walk then
   * gives the event loop a turn this often (in ms), so each step of sending is not held up behind a
   * slice of walking (on a loaded machine a slice of 8 ms of CPU can take 100 ms).
   */
  sliceMs?: number;
}

/** A file to read while binding: shown as `path`, read from `abs`, `bytes` long when planned. */
export interface PlannedFile {
  path: string;
  abs: string;
  /** For a compressed file, the DECOMPRESSED size: exact when `exact`, else an estimate. */
  bytes: number;
  /** Set for a log or text compressed with one of these: read decompressed (compressedRead.ts). */
  compression?: Compression;
  /** A compressed file's size on disk. */
  storedBytes?: number;
  /** A compressed file's `bytes` were counted by decoding it whole when planned. */
  exact?: boolean;
  /** A Jupyter notebook, read as its text form (notebookRead.ts); `bytes` is exact for one named alone, else its size on disk. */
  notebook?: true;
  /** One page of a PDF (`path` is `file.pdf#page=N`), its text extracted when read (pdfPlan.ts). */
  pdf?: PdfPageRef;
  /**
   * A PDF inside a folder: one entry whose text is all its pages under marker lines (pdfInFolder.ts),
   * parsed in the reading session's worker when first read; the file on disk may be up to `maxStoredBytes`.
   */
  pdfText?: { session: number; maxStoredBytes: number };
}

/**
 * What `rlm ask <paths>` will bind, found by a walk and `stat` without reading the files: enough for the
 * root's first request (type, sizes, file list, a short prefix) while the files are read and bound.
 */
export interface ContextPlan {
  /** One file named alone becomes a str; anything else a dict. */
  shape: 'text' | 'files';
  files: PlannedFile[];
  /** The first bytes of the first file (up to 8 KB): the prefix, and the binary check of a single file. */
  head: Uint8Array;
  totalBytes: number;
  /** A file in a folder is read up to this many bytes; one named alone, or a single file, up to the total. */
  maxFileBytes: number;
  maxTotalBytes: number;
  /**
   * Set when a folder is larger than the eager limit (maxTotalBytes) but within what may be listed:
   * `context` is then bound lazily, keys at once and texts fetched over the bridge when read.
   */
  lazy?: {
    listLimitBytes: number;
    /** Real paths of what the user named: a lazy read is served only from inside one of them. */
    roots: string[];
  };
  /** What was found and left out, as the target shows it; binaries found while reading are added at bind. */
  target: TargetDescription;
  /** Compressed files and rotated log sets, when there are any. */
  format?: InputFormat;
}

/** Where a planned PDF page comes from: the page, and the reading session whose document it is (pdfDocument.ts). */
export interface PdfPageRef {
  page: number;
  session: number;
}

/** Rotated log sets listed in the metadata, at most. */
export const LOG_SETS_MAX = 20;
