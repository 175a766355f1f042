// Preloaded into every unit test file (scripts/runUnitTests.mjs): the unit tier starts no process and no
// worker thread, so it runs in seconds and cannot rot into the 17-minute suite it once was. A test that
// starts the REPL, the built CLI, ripgrep, git or a worker fails at once with a message that says where
// it belongs (test/node/, run by `npm run test:node`).
//
// Only inside a test file's own process (Node sets NODE_TEST_CONTEXT there): the runner that spawns
// the test files is left alone. Calls made by esbuild (and tsx, which compiles through it) are let through:
// the build tests run esbuild's service process, and that is the toolchain, not the test.
'use strict';
const childProcess = require('node:child_process');
const workerThreads = require('node:worker_threads');
const { syncBuiltinESMExports } = require('node:module');

const TOOLCHAIN = /[\\/]node_modules[\\/](esbuild|@esbuild|tsx)[\\/]/;
/** A stack frame's file when it lies under the repository's test/ folder. */
const TEST_FILE = /[( ]((?:[A-Za-z]:)?[^ ()]*[\\/]test[\\/][^ ():]+\.ts):\d+/;

class ProcessStartInUnitTest extends Error {
  constructor(what) {
    super(
      `${what} in a unit test: the unit tier (test/unit/, \`npm run test:unit\`) starts no process and no worker. ` +
        'Move this file to test/node/ (git mv), where `npm run test:node` runs the tests that start the REPL, the CLI or a tool.',
    );
    this.name = 'ProcessStartInUnitTest';
    this.what = what;
  }
}

// A test that catches the error (to treat the program as missing, say) still fails its file: the
// process exits non-zero, which Node's runner reports as the file failing.
const refused = [];
function refuse(what) {
  const error = new ProcessStartInUnitTest(what);
  // Several test files share a process in a unit run (scripts/unitTestShard.cjs): name the one that asked.
  const file = (error.stack ?? '').split('\n').map((line) => TEST_FILE.exec(line)?.[1]).find(Boolean);
  refused.push(file ? `${what} from ${file}` : what);
  return error;
}

/** The first stack frame outside this file: who asked for the process. */
function callerIsToolchain() {
  const frames = (new Error().stack ?? '').split('\n').slice(1);
  const caller = frames.find((line) => !line.includes(__filename) && /\(|at /.test(line));
  return caller !== undefined && TOOLCHAIN.test(caller);
}

function guard(object, name, what) {
  const original = object[name];
  if (typeof original !== 'function') return;
  object[name] = function guarded(...args) {
    if (!callerIsToolchain()) throw refuse(`${what} (${typeof args[0] === 'string' ? args[0] : 'a program'})`);
    return Reflect.apply(original, this, args);
  };
}

if (process.env.NODE_TEST_CONTEXT && process.env.RLM_TEST_TIER === 'unit') {
  for (const name of ['spawn', 'spawnSync', 'fork', 'exec', 'execSync', 'execFile', 'execFileSync']) guard(childProcess, name, `child_process.${name}`);
  const OriginalWorker = workerThreads.Worker;
  workerThreads.Worker = class GuardedWorker extends OriginalWorker {
    constructor(...args) {
      if (!callerIsToolchain()) throw refuse(`new Worker(${String(args[0])})`);
      super(...args);
    }
  };
  // ES modules that import these builtins by name see the guarded functions too.
  syncBuiltinESMExports();
  process.on('exit', () => {
    if (refused.length === 0) return;
    process.stderr.write(`\nA unit test tried to start: ${refused.join('; ')}. Move its file to test/node/.\n`);
    process.exitCode = 1;
  });
}
