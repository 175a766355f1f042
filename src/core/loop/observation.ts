// The observation the root sees after a cell: head and tail of the output with its true length,
// the new variable names, and any error with its traceback. Never the whole output.
import { headTail } from '../repl/truncate';
import type { CellResult } from '../repl/replTypes';
import { formatCount } from '../../shared/text/format';

/** Share of the observation budget given to stdout when stderr is also non-empty. */
const STDOUT_SHARE = 0.75;
const MAX_VARIABLE_NAMES = 40;

export function buildObservation(cell: CellResult, maxChars: number, notes: string[] = []): string {
  const parts: string[] = [];
  if (cell.restarted) {
    parts.push(
      `[The REPL was restarted (${cell.restarted.reason}: ${cell.restarted.detail}). \`context\` is bound again, ` +
        'but every variable you defined is gone: recompute what you need.]',
    );
  }
  if (cell.timedOut) parts.push('[The cell hit its time limit and was interrupted; variables set before that point are kept.]');
  else if (cell.interrupted) parts.push('[The cell was interrupted; variables set before that point are kept.]');

  const hasStderr = cell.stderrChars > 0;
  const stdoutBudget = hasStderr ? Math.floor(maxChars * STDOUT_SHARE) : maxChars;
  if (cell.stdoutChars > 0) {
    const shown = cell.stdoutChars > stdoutBudget ? `, showing its head and tail; ${whereKept(cell)}` : '';
    parts.push(`Output (${formatCount(cell.stdoutChars)} chars${shown}):`);
    // The host's copy is the real head and the real tail, so the marker states exactly what is left out.
    parts.push(headTail(cell.stdout, stdoutBudget, cell.stdoutChars));
  } else if (!cell.error) {
    parts.push('(no output: print what you need to see)');
  }
  if (hasStderr) {
    parts.push(`Stderr (${formatCount(cell.stderrChars)} chars):`);
    parts.push(headTail(cell.stderr, maxChars - stdoutBudget, cell.stderrChars));
  }
  if (cell.error) {
    const traceback = cell.error.traceback.trim() || `${cell.error.type}: ${cell.error.message}`;
    parts.push(`Error: ${cell.error.type}: ${cell.error.message}`);
    if (traceback !== `${cell.error.type}: ${cell.error.message}`) parts.push(headTail(traceback, Math.floor(maxChars / 2)));
  }
  if (cell.newVariables.length > 0) {
    const names = cell.newVariables.slice(0, MAX_VARIABLE_NAMES);
    const more = cell.newVariables.length - names.length;
    parts.push(`New variables: ${names.join(', ')}${more > 0 ? ` (and ${more} more; SHOW_VARS() lists them)` : ''}`);
  }
  parts.push(...notes);
  return parts.join('\n');
}

/** Whether a cell counts as an error turn for the consecutive-errors limit. */
export function isErrorCell(cell: CellResult): boolean {
  return cell.error !== undefined && !cell.final;
}

/** Where the rest of a long output is: `_out[n]`, whole, or its head and tail with their ranges. */
function whereKept(cell: CellResult): string {
  const ref = `_out[${cell.outIndex}]`;
  if (cell.outIndex < 0) return 'the rest was not kept';
  if (!cell.outKept) return `the whole text is in ${ref} (len ${formatCount(cell.stdoutChars)})`;
  const ranges = cell.outKept.ranges.map(([a, b]) => `${formatCount(a)}-${formatCount(b)}`).join(' and ');
  return `${ref} (len ${formatCount(cell.outKept.chars)}) keeps only characters ${ranges} of it: the rest was over the REPL's per-cell limit`;
}

