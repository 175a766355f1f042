// The heavy half of the extension (loop, model SDKs, REPL host) as one interface. It is bundled
// separately (dist/engine.js) and loaded on first use, so activation loads none of it.
import type { RlmRun, RunOptions } from '../../core/loop/loopTypes';
import type { BridgeRouter, ReplFactory } from '../../core/repl/replFactory';
import type { ModelClient, ModelConfig } from '../../core/models/modelTypes';
import type { SubCallCache } from '../../core/models/subCallCache';
import type { UserCellOptions, UserCellResult } from '../../core/loop/userCell';

export interface ReplPool extends ReplFactory {
  /** Starts a never-used session ahead of need, so the next acquire() takes it at once. */
  prewarm(onError?: (error: unknown) => void): void;
  /** Never-used sessions started (or starting). */
  readonly spareCount: number;
  /** Stops every REPL process the pool started. */
  dispose(): Promise<void>;
}

interface ReplPoolOptions {
  /** The extension's dist/ folder: where replProcess.js, replWorker.js and pyodide/ are. */
  distDir: string;
  /** Where Pyodide memory snapshots are cached between sessions. */
  snapshotCacheDir?: string;
  /** ripgrep for search() over a lazy folder (VS Code's own). */
  ripgrepPath?: string;
  /** The REPL's memory cap in MB (rlm.replMemoryMb). */
  memoryCapMb?: number;
  /** Asked at each REPL start: the user accepted a weaker sandbox for this workspace (rlm.sandbox.allowWeaker). */
  allowWeakerSandbox?: () => boolean;
  log?: (message: string) => void;
}

export interface RlmEngine {
  createRlmRun(options: RunOptions): RlmRun;
  /** The user's own cell in a finished run's REPL (see core/loop/userCell.ts). */
  runUserCell(options: UserCellOptions): Promise<UserCellResult>;
  createBridgeRouter(): BridgeRouter;
  createModelClient(config: ModelConfig): ModelClient;
  createReplPool(options: ReplPoolOptions): ReplPool;
  /** The sub-call cache kept in `dir` (one workspace's folder), trimmed to `maxBytes`. */
  createSubCallCache(options: { dir: string; maxBytes: number }): SubCallCache;
}
