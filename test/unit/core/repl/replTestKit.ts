// Shared set-up for the REPL tests: they run the real built bundles (run `npm run build` first; a missing
// bundle fails the session start with a ReplStartError that says so).
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createReplSession } from '../../../../src/core/repl/replSession';
import type { ReplSessionOptions } from '../../../../src/core/repl/replSession';
import type { BridgeCall, BridgeHandler, ReplSession } from '../../../../src/core/repl/replTypes';

function findRepoRoot(start: string): string {
  let dir = start;
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'esbuild.mjs'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no repository root above ${start}`);
    dir = parent;
  }
  return dir;
}

export const repoRoot = findRepoRoot(resolve(__dirname));
const distDir = join(repoRoot, 'dist');
/** Shared by every REPL test file so that only the first start of a run is cold. */
const testSnapshotDir = join(tmpdir(), 'rlm-repl-test-snapshots');

/** A bridge that answers "echo:<prompt>" and records every call. */
export function recordingBridge(): { handler: BridgeHandler; calls: BridgeCall[] } {
  const calls: BridgeCall[] = [];
  return {
    calls,
    handler: async (call) => {
      calls.push(call);
      return call.prompts.map((p) => `echo:${p}`);
    },
  };
}

export async function startSession(options: Partial<ReplSessionOptions> & { bridge?: BridgeHandler } = {}): Promise<ReplSession> {
  return createReplSession({ distDir, snapshotCacheDir: testSnapshotDir, bridge: options.bridge ?? recordingBridge().handler, ...options });
}
