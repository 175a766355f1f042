// `rlm export <file> --to ipynb|md [-o out]`: turns a recorded run (ours or the Python reference's)
// into a notebook or a Markdown report.
import { parseArgs } from 'node:util';
import { exportToFile } from '../../core/trajectory/exportFile';
import { readTrajectory } from '../../core/trajectory/trajectoryReader';
import type { TrajectoryReadResult } from '../../core/trajectory/trajectoryReader';
import { NotATrajectoryError, TrajectoryReadError } from '../../core/trajectory/trajectoryScanner';
import { UsageError, usageErrorFrom } from '../support/modelArgs';
import type { CommandIo } from './commandIo';
import { inertOutput } from '../support/inertOutput';

const EXPORT_USAGE = 'usage: rlm export <file> --to ipynb|md [-o <out>]';

const TARGETS = ['ipynb', 'md'] as const;
type Target = (typeof TARGETS)[number];

function parseCommandLine(argv: string[]) {
  try {
    const options = { to: { type: 'string' }, out: { type: 'string', short: 'o' }, output: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const;
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageErrorFrom(error);
  }
}

export async function runExport(argv: string[], given: CommandIo): Promise<number> {
  // Paths and read errors can hold any bytes: printed inert.
  const io = { stdout: inertOutput(given.stdout), stderr: inertOutput(given.stderr) };
  let input: string;
  let target: Target;
  let output: string;
  try {
    const args = parseCommandLine(argv);
    if (args.values.help) {
      io.stdout.write(`${EXPORT_USAGE}\n`);
      return 0;
    }
    if (args.positionals.length !== 1) throw new UsageError(args.positionals.length ? 'give exactly one file' : 'missing <file>');
    input = args.positionals[0]!;
    const to = args.values.to;
    if (to === undefined) throw new UsageError('missing --to ipynb|md');
    if (!TARGETS.includes(to as Target)) throw new UsageError(`--to must be ipynb or md, got "${String(to)}"`);
    target = to as Target;
    if (args.values.out !== undefined && args.values.output !== undefined) throw new UsageError('give the output once: -o/--out or --output');
    output = args.values.out ?? args.values.output ?? defaultOutput(input, target);
    if (output === input) throw new UsageError('the output would overwrite the input; pass -o <out>');
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`rlm export: ${error.message}\n${EXPORT_USAGE}\n`);
      return 2;
    }
    throw error;
  }
  let read: TrajectoryReadResult;
  try {
    read = await readTrajectory(input);
  } catch (error) {
    if (error instanceof NotATrajectoryError || error instanceof TrajectoryReadError) {
      io.stderr.write(`rlm export: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
  if (!read.tree) {
    io.stderr.write(`rlm export: ${input} holds no run to export (it has a header but no run.started event)\n`);
    return 1;
  }
  try {
    // Every top-level run: a file of a question and its follow-ups exports as one conversation.
    exportToFile(read.runs, target, output, toolVersionOf(read));
  } catch (error) {
    io.stderr.write(`rlm export: cannot write ${output}: ${(error as Error).message}\n`);
    return 1;
  }
  io.stdout.write(`Wrote ${output}${read.problems.length ? ` (${read.problems.length} problems found while reading; see rlm show)` : ''}\n`);
  return 0;
}

/** next to the input: run.rlm.jsonl -> run.ipynb, rlm_log.jsonl -> rlm_log.md */
export function defaultOutput(input: string, target: Target): string {
  const base = input.replace(/\.rlm\.jsonl$/i, '').replace(/\.jsonl?$/i, '');
  return `${base}.${target}`;
}

function toolVersionOf(read: TrajectoryReadResult): { toolVersion?: string } {
  return read.header && 'toolVersion' in read.header ? { toolVersion: read.header.toolVersion } : {};
}
