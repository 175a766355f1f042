// What one cell's run gives back (CellResult, and its error, final answer and lazy-context reads), declared
// once as a schema: the types are inferred from it, and the trajectory's `cell.finished` record
// (trajectory/eventSchemas.ts) is checked against the same schema when a file is read.
import * as z from 'zod';
import { num, olderFiles } from '../recordFields';

const cellErrorSchema = z.object({
  /** Python exception type, e.g. "NameError", or "Interrupted" / "Timeout". */
  type: z.string(),
  message: z.string(),
  /** Traceback trimmed to the cell's own frames. */
  traceback: olderFiles(z.string()),
});

const finalAnswerSchema = z.object({ value: z.string(), via: z.enum(['FINAL', 'FINAL_VAR', 'answer']) });

/** What a cell read of a lazy `context`: counted whole, paths kept up to a bound. */
const contextReadsSchema = z.object({
  files: num(),
  bytes: num(),
  /** The first files read, in order (at most 200). */
  paths: z.array(z.string()),
  searches: num(),
  /** Bytes of the files the searches covered (on disk). */
  searchedBytes: num(),
});

export const cellResultSchema = z.object({
  /**
   * Captured output, at most the capture limit. A longer output keeps its real head and real tail:
   * `stdoutCutAt` is where the one ends and the other begins (docs/rlm-contract.md).
   */
  stdout: z.string(),
  stderr: z.string(),
  /** True lengths in characters, including what was not kept. */
  stdoutChars: olderFiles(num()),
  stderrChars: olderFiles(num()),
  stdoutCutAt: num().optional(),
  stderrCutAt: num().optional(),
  /**
   * Set when even `_out[outIndex]` could not keep the whole output (over _OUT_CELL_CHARS): how many
   * characters it holds and the [start, end) ranges of the true output they are.
   */
  outKept: z.object({ chars: num(), ranges: z.array(z.tuple([num(), num()])) }).optional(),
  /** answer["content"] when this cell changed it to a non-empty text: the answer being assembled. */
  answerDraft: z.string().optional(),
  error: cellErrorSchema.optional(),
  /** Names bound by this cell that were not bound before. */
  newVariables: olderFiles(z.array(z.string())),
  durationMs: olderFiles(num()),
  /** Set when the cell ended the run through FINAL, FINAL_VAR or answer["ready"]. */
  final: finalAnswerSchema.optional(),
  /** Files of a lazy `context` this cell read over the bridge, and its host-side searches. */
  contextReads: contextReadsSchema.optional(),
  /** Index n such that `_out[n]` holds this cell's full captured output in Python. */
  outIndex: olderFiles(num()),
  /** The soft timeout interrupted the cell (state kept). */
  timedOut: z.boolean().optional(),
  /** interrupt() or the AbortSignal stopped the cell (state kept). */
  interrupted: z.boolean().optional(),
  /**
   * The REPL process was killed and replaced (hard timeout, crash, out of memory):
   * `context` was rebound but every variable was lost. The next observation must say so.
   */
  restarted: z.object({ reason: z.enum(['hard-timeout', 'crash', 'out-of-memory']), detail: z.string() }).optional(),
});

export type CellResult = z.infer<typeof cellResultSchema>;
export type CellError = z.infer<typeof cellErrorSchema>;
export type ContextReads = z.infer<typeof contextReadsSchema>;
