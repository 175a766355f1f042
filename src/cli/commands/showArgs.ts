// Argument parsing and output plumbing shared by `rlm show` and `rlm export`.
import { UsageError } from '../modelArgs';

/** Where a command writes; process.stdout/stderr in the CLI, buffers in tests. */
export interface CommandIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface ParsedArgs {
  positionals: string[];
  /** Flag name (without dashes) -> value, or true for a switch. */
  flags: Map<string, string | true>;
}

/** Parses `--name value`, `--name=value`, `-o value` and switches; `valued` names take a value. */
export function parseArgs(argv: string[], valued: Record<string, string>, switches: string[]): ParsedArgs {
  const positionals: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const rawName = (eq === -1 ? arg : arg.slice(0, eq)).replace(/^--?/, '');
    const name = valued[rawName] ?? (switches.includes(rawName) ? rawName : undefined);
    if (name === undefined) throw new UsageError(`unknown option ${arg}`);
    if (switches.includes(name)) {
      flags.set(name, true);
      continue;
    }
    const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || value === '') throw new UsageError(`${arg} needs a value`);
    flags.set(name, value);
  }
  return { positionals, flags };
}
