// Layer 3 on macOS: the Seatbelt profile the REPL process runs under (`sandbox-exec -p PROFILE -D ...`).
// It takes the network away, every file write, and every read of a file's contents outside the REPL's
// bundle, the runtime that runs it (Node, or the Electron app VS Code ships) and the system libraries
// any process needs to start. Rules are read in order and the last match wins, so each `deny` is followed
// by the narrow `allow`s it must leave. Paths travel as -D parameters, never spliced into the text, so a
// folder name cannot change the profile. Generated as text and tested as text: it cannot run here.
import { dirname, posix } from 'node:path';

interface MacosProfileInputs {
  /** The folder holding replProcess.js, replWorker.js and pyodide/. */
  distDir: string;
  /** The Node (or Electron helper) binary the REPL runs on. */
  execPath: string;
}

/**
 * What the runtime itself must read: an Electron helper lives inside the outermost `.app` bundle
 * (frameworks, resources); a plain Node, in its installation prefix (the folder above `bin/`).
 */
function runtimeRoot(execPath: string): string {
  const app = /^(.*?\.app)(\/|$)/.exec(execPath);
  if (app?.[1]) return app[1];
  const bin = dirname(execPath);
  return posix.basename(bin) === 'bin' ? dirname(bin) : bin;
}

/** Read by dyld, libSystem and Node at start on every macOS process; none holds user data. */
const SYSTEM_READS = [
  '(subpath "/usr/lib")',
  '(subpath "/usr/share/icu")',
  '(subpath "/System/Library")',
  '(subpath "/System/Volumes/Preboot/Cryptexes")',
  '(subpath "/private/var/db/dyld")',
  '(subpath "/private/var/db/timezone")',
  '(literal "/private/etc/localtime")',
  '(literal "/dev/null")',
  '(literal "/dev/urandom")',
  '(literal "/dev/random")',
];

export const MACOS_PROFILE = [
  '(version 1)',
  '(allow default)',
  // Every socket: TCP, UDP and Unix sockets by path. The REPL's own channels are descriptors it inherits.
  '(deny network*)',
  // No program other than the runtime itself, which sandbox-exec starts.
  '(deny process-fork)',
  '(deny process-exec*)',
  '(allow process-exec (literal (param "RLM_EXEC")))',
  '(deny file-write*)',
  '(allow file-write-data (literal "/dev/null"))',
  // Contents only: metadata (existence, size) stays readable, which path resolution needs on every
  // folder above the bundle.
  '(deny file-read-data file-read-xattr)',
  `(allow file-read-data file-read-xattr (subpath (param "RLM_BUNDLE")) (subpath (param "RLM_RUNTIME")) ${SYSTEM_READS.join(' ')})`,
].join('\n');

/** The arguments for `/usr/bin/sandbox-exec`, ahead of the program and its own arguments. */
export function macosSandboxArgs(inputs: MacosProfileInputs): string[] {
  return ['-p', MACOS_PROFILE, '-D', `RLM_BUNDLE=${inputs.distDir}`, '-D', `RLM_RUNTIME=${runtimeRoot(inputs.execPath)}`, '-D', `RLM_EXEC=${inputs.execPath}`];
}
