// Entry of dist/engine.js: the loop, the model SDKs and the REPL host, loaded by the extension on
// first use (see loadEngineBundle) so that activation stays light.
import { createRlmRun } from '../../core/loop/rlmRun';
import { createBridgeRouter } from '../../core/repl/replFactory';
import { createModelClient } from '../../core/models/createModelClient';
import { runUserCell } from '../../core/loop/userCell';
import { ReplPool } from '../../core/repl/replPool';
import { SubCallCache } from '../../core/models/subCallCache';
import { createReplSession } from '../../core/repl/replSession';
import type { RlmEngine } from './engineTypes';

export const engine: RlmEngine = {
  createRlmRun,
  runUserCell,
  createBridgeRouter,
  // The global fetch, not the CLI's http client (nodeHttpFetch): inside VS Code the global fetch is the
  // one VS Code routes through the user's proxy settings and certificates, and Node's own http modules
  // reached without the extension host's require are not.
  createModelClient: (config) => createModelClient(config, { fetch: (input, init) => fetch(input, init) }),
  createSubCallCache: (options) => new SubCallCache(options),
  // One spare: started when a question is about to be asked, and again after each acquire.
  createReplPool: (options) =>
    new ReplPool({
      createBridgeRouter,
      spares: 1,
      create: (bridge, stop) =>
        createReplSession({
          bridge,
          startSignal: stop,
          distDir: options.distDir,
          ...(options.snapshotCacheDir ? { snapshotCacheDir: options.snapshotCacheDir } : {}),
          ...(options.ripgrepPath ? { ripgrepPath: options.ripgrepPath } : {}),
          ...(options.memoryCapMb !== undefined ? { memoryCapMb: options.memoryCapMb } : {}),
          ...(options.allowWeakerSandbox?.() ? { allowWeakerSandbox: true } : {}),
          ...(options.log ? { log: options.log } : {}),
        }),
      ...(options.log ? { onSpareError: (error: unknown) => options.log?.(`a spare REPL failed to start: ${error instanceof Error ? error.message : String(error)}`) } : {}),
    }),
};
