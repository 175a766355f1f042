// Typed errors for turning paths into `context`. Each message says what to do next.
import { formatBytes } from '../../shared/text/format';
import type { ErrorKind, KindedError } from '../errorKind';

export class ContextReadError extends Error implements KindedError {
  readonly errorKind: ErrorKind = 'invalid_context';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

export class PathNotFoundError extends ContextReadError {
  constructor(readonly path: string) {
    super(`${path}: no such file or folder`);
  }
}

/** A device, FIFO or socket was named: reading it could block forever or never end. */
export class SpecialFileError extends ContextReadError {
  constructor(
    readonly path: string,
    readonly kind: string,
  ) {
    super(`${path} is a ${kind}, not a regular file or folder; RLM reads files and folders only. Save what you need to a file and ask about that.`);
  }
}

/** A binary file was named directly (inside folders, binaries are skipped instead). */
export class BinaryFileError extends ContextReadError {
  constructor(
    readonly path: string,
    readonly reason: 'extension' | 'nul-byte',
  ) {
    super(
      `${path} looks like a binary file (${reason === 'extension' ? 'its extension' : 'it contains NUL bytes'}); ` +
        'RLM reads text only. Point it at source or text files instead.',
    );
  }
}

/** The input is larger than the limit. `largest` lists the biggest parts, to help narrow the selection. */
export class ContextTooLargeError extends ContextReadError {
  override readonly errorKind: ErrorKind = 'context_too_large';
  constructor(
    readonly bytes: number,
    readonly limit: number,
    readonly largest: Array<{ path: string; bytes: number }> = [],
    /** Reading stopped at the limit, so `bytes` is a lower bound (a growing file, or one whose stat said less). */
    readonly atLeast = false,
  ) {
    const parts = largest.length ? ` Largest parts: ${largest.map((p) => `${p.path} (${formatBytes(p.bytes)})`).join(', ')}.` : '';
    super(
      `The input holds ${atLeast ? 'more than ' : ''}${formatBytes(bytes)}, over the ${formatBytes(limit)} limit. ` +
        `Narrow it: name a subfolder or fewer files, add patterns to .gitignore, or raise the limit.${parts}`,
    );
  }
}

export class NoReadableFilesError extends ContextReadError {
  constructor(
    readonly paths: string[],
    readonly skippedCount: number,
  ) {
    super(
      `No text files to read under ${paths.join(', ')}` +
        (skippedCount ? ` (${skippedCount} skipped as binary, too large, ignored or unreadable; --verbose lists them)` : ''),
    );
  }
}

/**
 * A compressed file expands past the limit, or at a ratio no log has (a decompression bomb). Decoding
 * stopped as soon as it passed; nothing of it was sent anywhere.
 */
export class DecompressionBombError extends ContextReadError {
  override readonly errorKind: ErrorKind = 'context_too_large';
  constructor(
    readonly path: string,
    readonly why: 'limit' | 'ratio',
    /** Decompressed bytes seen when decoding stopped (a lower bound). */
    readonly bytesSeen: number,
    /** Compressed bytes read by then. */
    readonly storedBytes: number,
    readonly limit: number,
  ) {
    super(
      why === 'ratio'
        ? `${path} expands more than ${Math.floor(bytesSeen / Math.max(1, storedBytes))}-fold (over ${formatBytes(bytesSeen)} from ${formatBytes(storedBytes)}), as a decompression bomb does and no log does, so it was refused before anything was sent.`
        : `${path} expands to more than the ${formatBytes(limit)} limit (over ${formatBytes(bytesSeen)} from ${formatBytes(storedBytes)} compressed), so it was refused before anything was sent; decompress a part of it yourself, or raise the limit.`,
    );
  }
}

/** A file named as compressed (.gz, .bz2, .xz, .zst) that does not decode: damaged, or not that format. */
export class CorruptCompressedFileError extends ContextReadError {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`${path} cannot be decompressed: ${detail}. Check the file (e.g. \`gzip -t\`), or rename it if it is not compressed.`);
  }
}
