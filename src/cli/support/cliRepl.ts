// The CLI's REPL sessions: the REPL engine's pool, each session's bridge routed to the run using it.
// Every run (and every child run, and every eval task) gets a session no other run has touched; a spare
// is started as soon as the command starts, in parallel with reading the input and the first model call.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createBridgeRouter } from '../../core/repl/replFactory';
import { ReplPool } from '../../core/repl/replPool';
import { createReplSession } from '../../core/repl/replSession';
import { userCacheBase } from './userCacheBase';

interface CliReplOptions {
  distDir: string;
  snapshotCacheDir?: string;
  /** Never-used sessions kept ready: 1 for `rlm ask`, more for `rlm eval` and wide rlm_query batches. */
  spares?: number;
  /** Largest `context` a session binds (--context-limit-mb); default the REPL's 256 MB. */
  contextLimitBytes?: number;
  /** The REPL's memory cap in MB (--repl-memory-mb); default the REPL's 2048. */
  memoryCapMb?: number;
  /** ripgrep for search() over a lazy folder; absent: a streamed scan on the host. */
  ripgrepPath?: string;
  /** Keep a spare beside a running session only once a second one was needed (child runs); see ReplPool. */
  refillAfterFirst?: boolean;
  /** --allow-weaker-sandbox: REPLs may run with fewer than two sandbox layers holding (sandboxStrength.ts). */
  allowWeakerSandbox?: boolean;
  log?: (message: string) => void;
}

export function createCliReplFactory(options: CliReplOptions): ReplPool {
  const snapshotCacheDir = options.snapshotCacheDir ?? defaultSnapshotCacheDir();
  const pool = new ReplPool({
    create: (bridge, stop) =>
      createReplSession({
        bridge,
        distDir: options.distDir,
        snapshotCacheDir,
        startSignal: stop,
        ...(options.allowWeakerSandbox ? { allowWeakerSandbox: true } : {}),
        ...(options.contextLimitBytes !== undefined ? { contextLimitBytes: options.contextLimitBytes } : {}),
        ...(options.memoryCapMb !== undefined ? { memoryCapMb: options.memoryCapMb } : {}),
        ...(options.ripgrepPath ? { ripgrepPath: options.ripgrepPath } : {}),
        ...(options.log ? { log: options.log } : {}),
      }),
    createBridgeRouter,
    spares: options.spares ?? 1,
    ...(options.refillAfterFirst ? { refillAfterFirst: true } : {}),
    // A spare that failed is retried by the run that needs it, which reports the error itself.
    onSpareError: (error) => options.log?.(`a spare REPL failed to start: ${error instanceof Error ? error.message : String(error)}`),
  });
  pool.prewarm();
  return pool;
}

function defaultSnapshotCacheDir(): string {
  return join(userCacheBase(process.env, homedir()), 'rlm-vscode', 'pyodide-snapshots');
}
