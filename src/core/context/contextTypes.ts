// The shapes that describe what is bound as `context` in the REPL. The text itself never reaches the
// root model; only ContextMetadata does.

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
  | { kind: 'text'; text: Uint8Array | string; /** Where it came from, for display only. */ label?: string }
  | { kind: 'files'; files: ContextFile[] };

interface ContextFileMeta {
  path: string;
  chars: number;
}

/** What the root model (and the UI) may know about `context`. Constant size whatever the input. */
export interface ContextMetadata {
  type: 'str' | 'dict';
  totalChars: number;
  totalBytes: number;
  fileCount: number;
  /** The first characters of the text (or of the first file), at most 200. */
  prefix: string;
  /** Per-file lengths, at most 100 entries; `filesOmitted` says how many more there are. */
  files: ContextFileMeta[];
  filesOmitted: number;
  /** Number of invalid UTF-8 sequences replaced with U+FFFD while decoding. */
  invalidUtf8Replacements: number;
}

/** What the user pointed at, described without contents: for headers, confirmations and history. */
export interface TargetDescription {
  kind: 'file' | 'selection' | 'folder' | 'workspace' | 'files' | 'text';
  /** Paths as the user would recognise them (workspace-relative where possible). */
  paths: string[];
  totalBytes: number;
  fileCount: number;
  skipped: Array<{ path: string; reason: SkipReason; bytes?: number; /** e.g. "FIFO", "link to /etc/passwd". */ detail?: string }>;
}

/**
 * Why a path inside a folder was not read. `special`: a device, FIFO or socket. `link-outside`: a
 * symlink whose target is outside the chosen folder (never followed). `link-loop`: a symlink back to
 * a folder above it, or a chain of links that never ends. `link`: a symlink to something inside the
 * folder, which is read at its own path (or left out there, if excluded), not twice.
 */
export type SkipReason = 'binary' | 'too-large' | 'excluded' | 'unreadable' | 'limit' | 'special' | 'link-outside' | 'link-loop' | 'link';
