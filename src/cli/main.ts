// The `rlm` command line (entry of dist/cli.js). Each command is a function of argv and io that
// returns an exit code; this file only dispatches and wires the process in.
import { version } from '../../package.json';
import { runEval } from './commands/evalCommand';
import { runExport } from './commands/export';
import { runShow } from './commands/show';
import { runCache } from './commands/cacheCommand';
import { runAsk } from './commands/askCommand';
import { runContinue } from './commands/continueCommand';
import { runMcp } from './mcp/mcpCommand';
import { MAIN_HELP } from './support/cliHelp';
import { visibleControls } from '../shared/text/untrustedText';

function interruptHandler(handler: () => void): () => void {
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

/** What `ask` and `continue` need of the process: both run the loop the same way. */
function runOptions() {
  return {
    env: process.env,
    cwd: process.cwd(),
    stdout: process.stdout,
    stderr: process.stderr,
    // dist/cli.js runs beside replProcess.js, replWorker.js and pyodide/.
    distDir: __dirname,
    toolVersion: version,
    onInterrupt: interruptHandler,
    exitNow: (code: number): never => process.exit(code),
  };
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const io = { stdout: process.stdout, stderr: process.stderr };
  switch (command) {
    case 'ask':
      return runAsk(rest, runOptions());
    case 'continue':
      return runContinue(rest, runOptions());
    case 'eval':
      return runEval(rest, { ...io, env: process.env, cwd: process.cwd(), distDir: __dirname, toolVersion: version, onInterrupt: interruptHandler });
    case 'show':
      return runShow(rest, io);
    case 'export':
      return runExport(rest, io);
    case 'mcp':
      return runMcp(rest, { env: process.env, cwd: process.cwd(), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, distDir: __dirname, toolVersion: version });
    case 'cache':
      return runCache(rest, { ...io, env: process.env, cwd: process.cwd() });
    case '--version':
    case '-V':
      process.stdout.write(`${version}\n`);
      return 0;
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(`${MAIN_HELP}\n`);
      return command === undefined ? 2 : 0;
    default:
      process.stderr.write(`rlm: unknown command "${visibleControls(command)}". Run "rlm --help" for the commands.\n`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`rlm: ${visibleControls(error instanceof Error ? error.message : String(error))}\n`);
    process.exitCode = 1;
  },
);
