// Which tier a run of Node tests belongs to, from the files it runs: `node` when every file lies under
// test/node/ (tests that start the REPL, the CLI or another program), else `unit`, whose test files run
// with scripts/unitTierGuard.cjs preloaded so that none of them can start a process or a worker.
import { resolve, sep } from 'node:path';

/** The preload that keeps the unit tier free of processes, as a path relative to the repository. */
export const UNIT_TIER_GUARD = './scripts/unitTierGuard.cjs';

/** 'node' when every file lies under `<root>/test/node/`, else 'unit'. */
export function testTier(files, root = process.cwd()) {
  const nodeTier = resolve(root, 'test', 'node') + sep;
  return files.length > 0 && files.every((file) => resolve(root, file).startsWith(nodeTier)) ? 'node' : 'unit';
}
