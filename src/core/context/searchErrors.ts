// Why a search over a lazy folder stopped without hits: a pattern that ran past its time limit, or a
// file that stopped being what the walk listed (a link, a FIFO or device, or a path now leading out of
// the folder) while it was searched. Each message says what to do next; the cell sees it as an OSError.
import type { ErrorKind } from '../errorKind';
import { ContextReadError } from './contextErrors';

export class PatternTooSlowError extends ContextReadError {
  override readonly errorKind: ErrorKind = 'timeout';
  constructor(
    readonly pattern: string,
    readonly limitMs: number,
    readonly path: string,
  ) {
    const shown = pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern;
    super(`pattern took too long: ${JSON.stringify(shown)} ran over ${(limitMs / 1000).toFixed(1)} s on ${path} and was stopped; simplify it (no nested repeats like (a+)+) or search a smaller part with paths=[...]`);
  }
}

/** A listed file is no longer a regular file inside the folder: it is not searched, and the search says so. */
export class SearchRefusedFileError extends ContextReadError {
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`search: ${path} ${why}, so it is not searched; search the other files with paths=[...], or search again once the folder stops changing`);
  }
}
