// Typed errors for turning paths into `context`. Each message says what to do next.
import { formatBytes } from '../../shared/format';
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
