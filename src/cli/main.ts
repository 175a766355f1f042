// The `rlm` command line (entry of dist/cli.js). Each command is a function of argv and io that
// returns an exit code; this file only dispatches and wires the process in.
import { version } from '../../package.json';
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
  // Each command's code is loaded when it runs: initialising all of them (the MCP SDK and its JSON
  // schema compiler, the eval harness...) cost every `rlm ask` about 0.1 s of CPU before its first request.
  switch (command) {
    case 'ask':
      return (await import('./commands/askCommand')).runAsk(rest, runOptions());
    case 'continue':
      return (await import('./commands/continueCommand')).runContinue(rest, runOptions());
    case 'eval':
      return (await import('./commands/evalCommand')).runEval(rest, { ...io, env: process.env, cwd: process.cwd(), distDir: __dirname, toolVersion: version, onInterrupt: interruptHandler });
    case 'show':
      return (await import('./commands/show')).runShow(rest, io);
    case 'export':
      return (await import('./commands/export')).runExport(rest, io);
    case 'mcp':
      return (await import('./mcp/mcpCommand')).runMcp(rest, { env: process.env, cwd: process.cwd(), stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, distDir: __dirname, toolVersion: version });
    case 'cache':
      return (await import('./commands/cacheCommand')).runCache(rest, { ...io, env: process.env, cwd: process.cwd() });
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
