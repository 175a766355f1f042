// Entry of dist/engine.js: the loop, the model SDKs and the REPL host, loaded by the extension on
// first use (see loadEngineBundle) so that activation stays light.
import { createBridgeRouter, createRlmRun } from '../../core/loop/rlmRun';
import { createModelClient } from '../../core/models/createModelClient';
import { createReplSession } from '../../core/repl/replSession';
import type { RlmEngine } from './engineTypes';
import { RoutedReplPool } from './routedReplPool';

export const engine: RlmEngine = {
  createRlmRun,
  createBridgeRouter,
  createModelClient: (config) => createModelClient(config),
  createReplPool: (options) =>
    new RoutedReplPool({
      createBridgeRouter,
      createSession: (bridge) =>
        createReplSession({
          bridge,
          distDir: options.distDir,
          ...(options.snapshotCacheDir ? { snapshotCacheDir: options.snapshotCacheDir } : {}),
          ...(options.log ? { log: options.log } : {}),
        }),
    }),
};
