// The CLI's REPL sessions: the REPL engine's pool, with each session's bridge routed to the run using it.
// A run gives its session back reset and warm, so the next run (rlm eval) skips the Pyodide start.
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createRoutedReplFactory } from '../core/loop/routedReplFactory';
import type { RoutedReplFactory } from '../core/loop/routedReplFactory';
import { ReplPool } from '../core/repl/replPool';
import { createReplSession } from '../core/repl/replSession';

export interface CliReplOptions {
  distDir: string;
  snapshotCacheDir?: string;
  /**
   * For many runs in one process (rlm eval): when a released session is closed rather than kept warm
   * (it could not be reset), start its replacement at once.
   */
  prewarm?: boolean;
}

export function createCliReplFactory(options: CliReplOptions): RoutedReplFactory & { dispose(): Promise<void> } {
  let pool: ReplPool | undefined;
  const snapshotCacheDir = options.snapshotCacheDir ?? defaultSnapshotCacheDir();
  const factory = createRoutedReplFactory(
    (bridge) => createReplSession({ bridge, distDir: options.distDir, snapshotCacheDir }),
    (create) => {
      // The pool's own session options are unused: `create` supplies a routed bridge per session.
      pool = new ReplPool({ session: { bridge: () => Promise.reject(new Error('unrouted bridge call')), distDir: options.distDir }, create: () => create() });
      return pool;
    },
    { prewarmOnRelease: options.prewarm ?? false },
  );
  return { ...factory, dispose: async () => pool?.dispose() };
}

function defaultSnapshotCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'rlm-vscode', 'pyodide-snapshots');
}
