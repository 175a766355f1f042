// How an error reads where the CLI prints it: its message on one line, whatever raised it.
import { LoopError } from '../../core/loop/loopErrors';
import { ModelError } from '../../core/models/modelErrors';

/** Errors become one line at this edge. */
export function oneLine(error: unknown): string {
  const text = error instanceof ModelError || error instanceof LoopError || error instanceof Error ? error.message : String(error);
  return text.replace(/\s*\n\s*/g, ' ').trim();
}
