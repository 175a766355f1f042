// How every command turns its argument list into options, so that their usage errors read alike.
import { UsageError } from './modelArgs';

/**
 * The command's parsed arguments, or undefined once a usage error has been printed as
 * `rlm NAME: message` followed by where its options are described (the caller exits with the usage code).
 * Any other error is not the user's and is thrown on.
 */
export function parseCommandArgs<T>(command: string, parse: () => T, stderr: { write(text: string): unknown }): T | undefined {
  try {
    return parse();
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    stderr.write(`rlm ${command}: ${error.message}\nRun "rlm ${command} --help" for the options.\n`);
    return undefined;
  }
}
