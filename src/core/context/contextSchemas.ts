// The shapes that describe a run's input to the root model, the UI and the trajectory, declared once
// as schemas: ContextMetadata and TargetDescription (contextTypes.ts re-exports them) are inferred from
// these, and the trajectory's header and events check recorded files against them (eventSchemas.ts).
// `olderFiles` marks a field that files written by earlier versions may lack.
import * as z from 'zod';
import { num, olderFiles } from '../recordFields';
import type { Compression } from './compressedFormats';
import type { NotebookSummary } from './notebookText';

/**
 * Why a path inside a folder was not read. `special`: a device, FIFO or socket. `link-outside`: a
 * symlink whose target is outside the chosen folder (never followed). `link-loop`: a symlink back to
 * a folder above it, or a chain of links that never ends. `link`: a symlink to something inside the
 * folder, which is read at its own path (or left out there, if excluded), not twice.
 */
const skipReasonSchema = z.enum(['binary', 'too-large', 'excluded', 'unreadable', 'limit', 'special', 'link-outside', 'link-loop', 'link']);

const skippedSchema = z.object({
  path: z.string(),
  reason: skipReasonSchema,
  bytes: num().optional(),
  /** e.g. "FIFO", "link to /etc/passwd". */
  detail: z.string().optional(),
});

/** What the user pointed at, described without contents: for headers, confirmations and history. */
export const targetSchema = z.object({
  kind: z.enum(['file', 'selection', 'folder', 'workspace', 'files', 'text']),
  /** Paths as the user would recognise them (workspace-relative where possible). */
  paths: z.array(z.string()),
  totalBytes: num(),
  fileCount: num(),
  skipped: olderFiles(z.array(skippedSchema)),
});

/** What the input is when it is more than plain text files, for the root's metadata (constant size). */
const inputFormatSchema = z.object({
  /** A `str` read decompressed from a file compressed this way. */
  compression: z.enum(['gzip', 'bzip2', 'xz', 'zstd']).optional(),
  /** Entries of a dict read decompressed (.gz, .bz2, .xz, .zst). */
  compressedFiles: num().optional(),
  /** Rotated logs: each one log in several parts, its parts oldest first in `context`'s order (at most 20 listed). */
  logSets: z.array(z.object({ log: z.string(), parts: num() })).optional(),
  logSetsOmitted: num().optional(),
  /** A `str` that is a Jupyter notebook's text form: its cells by kind (notebookText.ts). */
  notebook: z
    .object({ cells: num(), code: num(), markdown: num(), raw: num(), language: z.string().optional(), binaryOutputs: num(), truncatedOutputs: num() })
    .optional(),
  /** Entries of a dict that are Jupyter notebooks read as their text form. */
  notebooks: num().optional(),
  /** A PDF read page by page: `context` maps `file.pdf#page=N` to each page's text. */
  pdf: z
    .object({
      pages: num(),
      /** Pages read and found without text (scanned, or images only), as ranges "3, 7–9" (constant size). Absent until read. */
      textlessPages: z.string().optional(),
      textlessCount: num().optional(),
    })
    .optional(),
  /** Entries of a dict that are PDFs, each read as its pages' text under page markers (pdfInFolder.ts): how many, and of those read so far (all of them in an eager bind) their pages and pages without text. */
  pdfs: z.object({ files: num(), read: num(), pages: num(), textlessPages: num() }).optional(),
});

/** What the root model (and the UI) may know about `context`. Constant size whatever the input. */
export const contextMetadataSchema = z.object({
  type: z.enum(['str', 'dict']),
  totalChars: num(),
  totalBytes: olderFiles(num()),
  fileCount: num(),
  /** The first characters of the text (or of the first file), at most 200. */
  prefix: olderFiles(z.string()),
  /** Per-file lengths, at most 100 entries; `filesOmitted` says how many more there are. */
  files: olderFiles(z.array(z.object({ path: z.string(), chars: num() }))),
  filesOmitted: olderFiles(num()),
  /** Number of invalid UTF-8 sequences replaced with U+FFFD while decoding. */
  invalidUtf8Replacements: olderFiles(num()),
  /**
   * Set on the metadata the root sees before `context` is bound (the first request goes out at once):
   * character counts are estimated from byte sizes, and files may still turn out binary.
   */
  approximate: z.boolean().optional(),
  /**
   * `lazy`: a folder over the eager limit; the REPL holds the file list and fetches texts when read,
   * keeping at most `cacheBudgetBytes` of them; search() runs on the host. Absent: eager.
   */
  mode: z.enum(['eager', 'lazy']).optional(),
  cacheBudgetBytes: num().optional(),
  /**
   * `partial`: sent while the folder was still being walked. The counts are at least these, the
   * files are the first found, and the mode (absent unless already over the eager limit) is decided
   * when the walk ends; the root is told the final figures with its first observation.
   */
  listing: z.literal('partial').optional(),
  /** Files of the source left out while binding (found binary or unreadable when read). */
  leftOut: z.array(skippedSchema).optional(),
  /** Set when the input is more than plain text files: compressed, or rotated logs. */
  format: inputFormatSchema.optional(),
});

export type TargetDescription = z.infer<typeof targetSchema>;
export type SkipReason = z.infer<typeof skipReasonSchema>;
export type InputFormat = z.infer<typeof inputFormatSchema>;
export type ContextMetadata = z.infer<typeof contextMetadataSchema>;

// The notebook summary and the compression formats are owned by their readers (notebookText.ts,
// compressedFormats.ts): the schema must describe the same values (checked by tsc).
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Agree<T extends true> = T;
type _ContextSchemasAgree = [Agree<Same<NonNullable<InputFormat['notebook']>, NotebookSummary>>, Agree<Same<NonNullable<InputFormat['compression']>, Compression>>];
